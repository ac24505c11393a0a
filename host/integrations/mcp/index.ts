/**
 * The MCP gateway: any MCP client ↔ basis-hooks ↔ any stdio MCP server, with the hook chain on every
 * `tools/call`. Imported on its own (`basis-hooks/mcp`) because it brings the MCP SDK with it.
 */
export { McpGateway, UNKNOWN_CLIENT, type GatewayOptions, type GatewayEnd } from './gateway.js';
export { ServerProcess, exitStatus, SHUTDOWN_GRACE_MS, type ServerCommand, type ServerExit } from './server-process.js';
export { outputOf, refusal, replacedResult, resultAfterHooks } from './tool-call.js';
