import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { HookRequest, InvokeResult } from '../../../host/index.js';

/** Path of the misbehaving-hook fixture (see its header for the modes). */
export const MISBEHAVING_HOOK = fileURLToPath(new URL('../../fixtures/subprocess/misbehaving-hook.mjs', import.meta.url));

/** argv that runs the misbehaving hook in `mode` with this very Node. */
export function hookArgv(mode: string): string[] {
  return [process.execPath, MISBEHAVING_HOOK, mode];
}

/** A pre_tool_use request; `workspace` defaults to a directory that does not exist. */
export function preRequest(overrides: Partial<Omit<HookRequest, 'event'>> = {}): HookRequest {
  return {
    hook_schema: 1,
    event: 'pre_tool_use',
    workspace: '/nonexistent/basis-hooks-ws',
    agent_id: 'agent-1',
    tool_call_id: 'call-1',
    tool_name: 'shell',
    input: { command: 'ls' },
    ...overrides,
  } as HookRequest;
}

/** The failure code of a result, or `ok` — what the tests assert on. */
export function codeOf(result: InvokeResult): string {
  return result.ok ? 'ok' : result.failure.code;
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'basis-subprocess-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a hook wrote to BASIS_TEST_PID_FILE: host pids, and the hook's process group (its pid's when absent). */
export interface HookPids {
  readonly hook: number;
  readonly grandchild: number | null;
  readonly pgid: number;
}

/** What the fixture wrote to BASIS_TEST_PID_FILE. */
export function readPids(file: string): HookPids {
  const pids = JSON.parse(readFileSync(file, 'utf8')) as { hook: number; grandchild: number | null; pgid?: number };
  return { ...pids, pgid: pids.pgid ?? pids.hook };
}

/** `/proc/<pid>/stat` fields after the command name: [state, ppid, pgrp, ...], or undefined when gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * True while `pid` is a live process. A zombie counts as dead: it has exited and holds nothing, it
 * only waits for whoever adopted it to reap it (`kill(pid, 0)` alone would still succeed on it).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** Live (non-zombie) members of process group `pgid`, found through /proc. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== undefined && fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry));
  }
  return members;
}

/** Poll `predicate` until it holds or `ms` pass; returns whether it held. Signals are delivered asynchronously. */
export async function eventually(predicate: () => boolean, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (predicate()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Wait until the fixture has written its pid file (it is running), then return the pids. */
export async function waitForPids(file: string, ms = 5000): Promise<HookPids> {
  let pids: HookPids | undefined;
  await eventually(() => {
    try {
      pids = readPids(file);
      return true;
    } catch {
      return false; // not written yet, or written half-way
    }
  }, ms);
  if (pids === undefined) throw new Error(`the hook never wrote ${file}`);
  return pids;
}

/**
 * A fresh pid-file path per call (for `BASIS_TEST_PID_FILE`), its directory removed after each test.
 * Call once inside a `describe`.
 */
export function pidFiles(): () => string {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  return () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    return path.join(dir, 'pids.json');
  };
}
