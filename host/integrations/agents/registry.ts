/** Every agent dialect by name. */
import { claudeCodeAgent } from './claude-code.js';
import { clineAgent } from './cline.js';
import { codexAgent } from './codex.js';
import { copilotAgent } from './copilot.js';
import { cursorAgent } from './cursor.js';
import { geminiAgent } from './gemini.js';
import { kiroAgent } from './kiro.js';
import type { AgentName } from './names.js';
import { qwenAgent } from './qwen.js';
import type { AgentDialect } from './types.js';
import { windsurfAgent } from './windsurf.js';

const DIALECTS: Readonly<Record<AgentName, AgentDialect>> = {
  'claude-code': claudeCodeAgent,
  codex: codexAgent,
  gemini: geminiAgent,
  copilot: copilotAgent,
  qwen: qwenAgent,
  cline: clineAgent,
  cursor: cursorAgent,
  windsurf: windsurfAgent,
  kiro: kiroAgent,
};

/** The dialect of one agent. */
export function agentDialect(name: AgentName): AgentDialect {
  return DIALECTS[name];
}
