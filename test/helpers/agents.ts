import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentName, AgentReply } from '../../host/integrations/agents/index.js';
import { ROOT } from './guests.js';

/*
 * What the agent-dialect tests share: whether a reply blocks the call in the agent's own terms (its
 * documented or verified blocking forms — not ours), and running a process with stdin.
 */

/** Whether a reply blocks the call as that agent reads it (an exit 2 blocks only where the agent says so: never Cline). */
export function blocksIn(agent: AgentName, reply: AgentReply): boolean {
  let out: Record<string, any> | undefined;
  try {
    out = reply.stdout.trim() === '' ? undefined : (JSON.parse(reply.stdout) as Record<string, any>);
  } catch {
    return false;
  }
  switch (agent) {
    case 'claude-code':
    case 'qwen':
    case 'codex':
      return reply.exit === 0 && (out?.['hookSpecificOutput']?.permissionDecision === 'deny' || out?.['decision'] === 'block');
    case 'gemini':
      return reply.exit === 0 && out?.['decision'] === 'deny';
    case 'copilot':
      return reply.exit === 0 && (out?.['permissionDecision'] === 'deny' || out?.['hookSpecificOutput']?.permissionDecision === 'deny');
    case 'cline':
      return reply.exit === 0 && out?.['cancel'] === true;
    case 'cursor':
      return reply.exit === 0 && out?.['permission'] === 'deny';
    case 'windsurf':
    case 'kiro':
      return reply.exit === 2 && reply.stderr.trim() !== '';
  }
}

import type { Ran } from './run.js';
export { runWith, type Ran } from './run.js';

/** A finished process as an agent reply (a signal is exit -1: never a block). */
export function asReply(ran: Ran): AgentReply {
  return { exit: ran.code ?? -1, stdout: ran.stdout, stderr: ran.stderr };
}

/** A pre-call event each agent sends: a sample captured from the real CLI, or a fixture copied from its docs. */
export function preEvent(agent: AgentName): string {
  const file: Record<AgentName, string> = {
    'claude-code': 'agents/samples/claude-PreToolUse.json',
    codex: 'agents/samples/codex-PreToolUse.json',
    gemini: 'agents/samples/gemini-BeforeTool.json',
    copilot: 'agents/samples/copilot-preToolUse.json',
    qwen: 'agents/samples/qwen-PreToolUse.json',
    cline: 'agents/samples/cline-PreToolUse.json',
    cursor: 'test/fixtures/agents/cursor-preToolUse.json',
    windsurf: 'test/fixtures/agents/windsurf-pre_run_command.json',
    kiro: 'test/fixtures/agents/kiro-preToolUse.json',
  };
  return readFileSync(path.join(ROOT, file[agent]), 'utf8');
}
