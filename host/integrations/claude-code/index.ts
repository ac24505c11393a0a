/**
 * The basis chain as a Claude Code hook (command or HTTP), and the `.claude/settings.json` block that
 * wires it in. The reverse — Claude Code hook scripts inside a basis chain — is the subprocess
 * transport's `claude-code` dialect.
 *
 * The curated surface of this entry (docs/library.md; test/api/public-surface.json lists it): the
 * bridge, its HTTP server, the settings block and Claude Code's hook protocol schemas. The helpers
 * they are built from (answer shaping, event reading, quoting, matchers) are internal.
 */
export { ClaudeCodeBridge, type BridgeAnswer } from './bridge.js';
export type { AnswerOptions } from './answer.js';
export { serveClaudeCode, type HttpOptions } from './http.js';
export { settingsFor, type BridgeEndpoint, type ClaudeCodeSettings, type SettingsGroup, type CommandHandler, type HttpHandler } from './settings.js';
export {
  ClaudeCodeToolInput,
  ClaudeCodeOutput,
  ClaudeCodeHookSpecificOutput,
  ClaudeCodeToolEvent,
  PermissionDecision,
} from '../../transports/subprocess/dialect/claude-code/protocol.js';
