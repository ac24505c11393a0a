/**
 * Helpers for the operations tests (pinning, armed checks, budgets, shadow hooks, the audit stream):
 * real hooks only — sh scripts written into a temp directory, and the built WAT/C guests.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PostToolUseCall, PreToolUseCall } from '../../host/index.js';
import { WAT_CONFORMANCE_DIR, ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';

/** A WAT conformance guest (`allow`, `deny`, `hang`, `modify-wrap`, `deny-if-wrapped`, `crash`...). */
export function watBehaviour(name: string): string {
  return path.join(WAT_CONFORMANCE_DIR, `${name}.wasm`);
}

/** The policy guests of a language (`guard`, `redact`). */
export function policyGuest(lang: 'wat' | 'c', name: 'guard' | 'redact'): string {
  return path.join(guestBuildDir(lang), `${name}.wasm`);
}

/** Build the WAT and C guests when a fresh checkout has none. */
export async function ensureOpsGuests(): Promise<void> {
  await ensureGuestsBuilt('wat', [watBehaviour('allow'), watBehaviour('hang'), watBehaviour('modify-wrap'), watBehaviour('deny-if-wrapped'), watBehaviour('crash'), policyGuest('wat', 'guard')]);
  await ensureGuestsBuilt('c', [policyGuest('c', 'redact')]);
}

/**
 * Write an executable sh hook `name` into `dir` that runs `body` (the request is on stdin; `body`
 * must consume it or not, and print the answer). Returns its absolute path.
 */
export async function shHook(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** A hook answering `response` after draining its request. */
export function answerBody(response: unknown): string {
  return `cat >/dev/null\nprintf '%s\\n' '${JSON.stringify(response)}'`;
}

const base = { workspace: '/repo', agent_id: 'agent-1' } as const;

export function preCall(id: string, input: unknown, tool = 'shell'): PreToolUseCall {
  return { event: 'pre_tool_use', ...base, tool_call_id: id, tool_name: tool, input: input as PreToolUseCall['input'] };
}

export function postCall(id: string, input: unknown, output: unknown, tool = 'shell'): PostToolUseCall {
  return { event: 'post_tool_use', ...base, tool_call_id: id, tool_name: tool, input: input as PostToolUseCall['input'], output: output as PostToolUseCall['output'], is_error: false };
}
