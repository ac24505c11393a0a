/**
 * The MCP gateway: any MCP client ↔ basis-hooks ↔ any MCP server (stdio or Streamable HTTP, MCP
 * 2025-11-25 or 2026-07-28), with the hook chain on every `tools/call`. Imported on its own
 * (`basis-hooks/mcp`) because it brings the MCP SDK with it.
 */
/*
 * The curated surface of this entry (docs/library.md; test/api/public-surface.json lists it): the two
 * gateways, the token verifier, their errors and their option types. The protocol machinery (method
 * tables, eras, header mirroring, result shaping, task seals, the server process) is internal.
 */
export { McpGateway, type GatewayOptions, type GatewayCommonOptions, type GatewayEnd } from './gateway.js';
export { McpHttpGateway, type HttpGatewayOptions, type HttpAuth } from './http-gateway.js';
export { TokenVerifier, TokenSetupError, isTokenSetupError, type TokenSetupCode, type TokenOptions, type VerifiedToken, type TokenProblem, type IdentityDefaults } from './identity.js';
export { type ServerCommand, type ServerExit } from './upstream/server-process.js';
export { UpstreamError, isUpstreamError, type UpstreamErrorCode } from './upstream/link.js';
export type { ToolResult } from './tool-call.js';
export type { UnknownMethods } from './jsonrpc/methods.js';
export type { ExposeRuleInput } from './expose.js';
export type { Identity } from './tool-hooks.js';
export type { Era } from './era.js';
