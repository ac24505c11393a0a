/**
 * The protocols a subprocess hook can speak: `basis` (the basis wire contract) and `claude-code`
 * (Claude Code's command-hook protocol). On its own so the config schema can name them without
 * loading the dialects.
 */
export const DIALECT_NAMES = ['basis', 'claude-code'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];
