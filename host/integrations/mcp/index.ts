/**
 * The MCP gateway: any MCP client ↔ basis-hooks ↔ any MCP server, with the hook chain on every
 * `tools/call`. Imported on its own (`basis-hooks/mcp`) because it brings the MCP SDK with it.
 */
export { McpGateway, UNKNOWN_CLIENT, DEFAULT_UPSTREAM_TIMEOUT_MS, type GatewayOptions, type GatewayEnd } from './gateway.js';
export { ServerProcess, exitStatus, SHUTDOWN_GRACE_MS, DEFAULT_MAX_MESSAGE_BYTES, type ServerCommand, type ServerExit } from './upstream/server-process.js';
export { UpstreamError, isUpstreamError, type UpstreamErrorCode } from './upstream/link.js';
export { outputOf, isErrorOf, isToolResult, refusal, replacedResult, resultAfterHooks, type ToolResult, type ResultShapeOptions } from './tool-call.js';
export { CLIENT_REQUESTS, CLIENT_NOTIFICATIONS, SERVER_REQUESTS, SERVER_NOTIFICATIONS, type UnknownMethods } from './jsonrpc/methods.js';
export type { Identity } from './tool-hooks.js';
