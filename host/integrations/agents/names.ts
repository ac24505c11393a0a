/**
 * The agent CLIs whose hook dialects basis-hooks speaks, in and out. On its own so the config schema
 * and the CLI can name them without loading the dialects.
 */
export const AGENT_NAMES = ['claude-code', 'codex', 'gemini', 'copilot', 'qwen', 'cline', 'cursor', 'windsurf', 'kiro'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Whether a string names an agent. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}
