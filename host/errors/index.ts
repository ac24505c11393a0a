export { BasisHooksError, isBasisHooksError, type ErrorCode } from './basis-hooks-error.js';
export { HookError, isHookError } from './hook-error.js';
export { ConfigError, type ConfigIssue } from './config-error.js';
export { RunnerError } from './runner-error.js';
export { OptionsError, isOptionsError } from './options-error.js';
export { PackageMissingError, isPackageMissingError, OPTIONAL_PACKAGES, type OptionalPackage } from './package-missing-error.js';
export { PolicyError, isPolicyError, type PolicyProblem, type PolicyLocation } from './policy-error.js';
