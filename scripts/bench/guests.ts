/** The guests the benchmark runs: the example `guard` policy per guest language, and the one request every hook sees. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookRequest, PreToolUseCall } from '../../host/index.js';

/** Repository root (no trailing slash). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** One component guest under test. */
export interface BenchGuest {
  /** Short stable key (JSON). */
  readonly id: string;
  /** Human label (table). */
  readonly label: string;
  /** Guest language directory under guest-examples/ (for `npm run build-guests <lang>`). */
  readonly lang: string;
  readonly path: string;
}

function built(lang: string, ...rest: string[]): string {
  return join(ROOT, 'guest-examples', lang, 'build', ...rest);
}

export const GUESTS: readonly BenchGuest[] = [
  { id: 'wat', label: 'WAT', lang: 'wat', path: built('wat', 'guard.wasm') },
  { id: 'c', label: 'C', lang: 'c', path: built('c', 'guard.wasm') },
  { id: 'rust-std', label: 'Rust std', lang: 'rust', path: built('rust', 'std', 'guard.wasm') },
  { id: 'rust-nostd', label: 'Rust no_std', lang: 'rust', path: built('rust', 'nostd', 'guard.wasm') },
  { id: 'assemblyscript', label: 'AssemblyScript', lang: 'assemblyscript', path: built('assemblyscript', 'guard.wasm') },
  { id: 'js-spidermonkey', label: 'JS (SpiderMonkey)', lang: 'js', path: built('js', 'spidermonkey', 'guard.wasm') },
  { id: 'js-quickjs', label: 'JS (QuickJS)', lang: 'js', path: built('js', 'quickjs', 'guard.wasm') },
  { id: 'ts-spidermonkey', label: 'TS (SpiderMonkey)', lang: 'ts', path: built('ts', 'spidermonkey', 'guard.wasm') },
  { id: 'ts-quickjs', label: 'TS (QuickJS)', lang: 'ts', path: built('ts', 'quickjs', 'guard.wasm') },
];

/** Guests whose cold start is measured: small (WAT), native (C), and both JS engines. */
export const COLD_START_GUESTS: readonly string[] = ['wat', 'c', 'js-spidermonkey', 'js-quickjs'];

/** The guest of the chain and concurrency cases: a real policy compiled natively. */
export const CHAIN_GUEST = 'c';

export function guestById(id: string): BenchGuest {
  const guest = GUESTS.find((g) => g.id === id);
  if (guest === undefined) throw new Error(`unknown bench guest ${id}`);
  return guest;
}

/** A tool call every guard lets through, but only after scanning it (it is a `git push`). */
export const CALL: Omit<PreToolUseCall, 'event'> = {
  workspace: tmpdir(),
  agent_id: 'bench',
  tool_call_id: 'call-1',
  tool_name: 'shell',
  input: { command: 'git push origin feature' },
};

/** What the guard answers to {@link CALL} (the answer half of the JSON floor). */
export const ANSWER = { decision: 'allow' } as const;

/** The same call as the request a transport receives. */
export const REQUEST: HookRequest = {
  hook_schema: 1,
  event: 'pre_tool_use',
  workspace: CALL.workspace,
  agent_id: CALL.agent_id,
  tool_call_id: CALL.tool_call_id,
  tool_name: CALL.tool_name,
  input: CALL.input,
};
