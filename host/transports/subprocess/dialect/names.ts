/**
 * The protocols a subprocess hook can speak: `basis` (the basis wire contract), and each agent CLI's
 * command-hook protocol, so its existing hook scripts run unchanged in a chain. On its own so the
 * config schema can name them without loading the dialects.
 */
export const DIALECT_NAMES = ['basis', 'claude-code', 'codex', 'gemini', 'copilot', 'qwen', 'cline', 'cursor', 'windsurf', 'kiro'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];
