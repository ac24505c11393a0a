/**
 * The hook dialects of nine agent CLIs, both ways: an agent's event into a basis call, and the
 * chain's outcome into that agent's answer — in its own blocking form, never its fail-open path.
 */
export { AGENT_NAMES, isAgentName, type AgentName } from './names.js';
export type { AgentDialect, AgentEvent, AgentReply, AgentCapabilities, ReadAgentEvent } from './types.js';
export { agentDialect } from './registry.js';
export { handleAgentEvent, type HandleOptions } from './handle.js';
export { TOOL_TABLES, toCanonical, fromCanonical, mcpNameFor, mcpAmbiguity, type ToolRow, type CanonicalName } from './tool-names.js';
