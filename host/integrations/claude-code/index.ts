/**
 * The basis chain as a Claude Code hook (command or HTTP), and the `.claude/settings.json` block that
 * wires it in. The reverse — Claude Code hook scripts inside a basis chain — is the subprocess
 * transport's `claude-code` dialect.
 */
export { ClaudeCodeBridge, blockedBody, oneLine, type BridgeAnswer } from './bridge.js';
export { answerFor, withheld, isMcpTool, type AnswerOptions } from './answer.js';
export { readEvent, type ReadEvent } from './event.js';
export { serveClaudeCode, claudeCodeRefusal, DEFAULT_HOST, CLAUDE_CODE_MAX_BODY, type HttpOptions } from './http.js';
export { settingsFor, matcherFor, timeoutFor, shellQuote, guardCommand, type BridgeEndpoint, type ClaudeCodeSettings, type SettingsGroup, type CommandHandler, type HttpHandler } from './settings.js';
export {
  ClaudeCodeToolInput,
  ClaudeCodeOutput,
  ClaudeCodeHookSpecificOutput,
  ClaudeCodeToolEvent,
  PermissionDecision,
} from '../../transports/subprocess/dialect/claude-code/protocol.js';
