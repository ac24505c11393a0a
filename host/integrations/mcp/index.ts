/**
 * The MCP gateway: any MCP client ↔ basis-hooks ↔ any MCP server (stdio or Streamable HTTP, MCP
 * 2025-11-25 or 2026-07-28), with the hook chain on every `tools/call`. Imported on its own
 * (`basis-hooks/mcp`) because it brings the MCP SDK with it.
 */
export {
  McpGateway,
  UNKNOWN_CLIENT,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type GatewayOptions,
  type GatewayCommonOptions,
  type GatewayEnd,
} from './gateway.js';
export { McpHttpGateway, type HttpGatewayOptions, type HttpAuth } from './http-gateway.js';
export { TokenVerifier, TokenSetupError, isTokenSetupError, resolveIdentity, type TokenSetupCode, type TokenOptions, type VerifiedToken, type TokenProblem, type IdentityDefaults } from './identity.js';
export { ServerProcess, exitStatus, SHUTDOWN_GRACE_MS, DEFAULT_MAX_MESSAGE_BYTES, type ServerCommand, type ServerExit } from './upstream/server-process.js';
export { UpstreamError, isUpstreamError, type UpstreamErrorCode } from './upstream/link.js';
export { outputOf, isErrorOf, isToolResult, refusal, replacedResult, resultAfterHooks, type ToolResult, type ResultShapeOptions } from './tool-call.js';
export { CLIENT_REQUESTS, CLIENT_NOTIFICATIONS, SERVER_REQUESTS, SERVER_NOTIFICATIONS, type UnknownMethods } from './jsonrpc/methods.js';
export { MODERN_VERSION, MODERN_VERSIONS, LEGACY_VERSIONS, META, type Era } from './era.js';
export { encodeHeaderValue, decodeHeaderValue, mirroredHeaders, headerMismatch, paramHeaders, type ParamHeader } from './mirror-headers.js';
export { Exposure, type ExposeRuleInput } from './expose.js';
export { TaskSeal, type TaskSealContents } from './task-handles.js';
export type { Identity } from './tool-hooks.js';
