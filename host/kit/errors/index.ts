export { KitError, isKitError, type KitErrorCode } from './kit-error.js';
export { ToolchainMissingError, isToolchainMissingError } from './toolchain-missing-error.js';
