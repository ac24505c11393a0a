/**
 * Smoke test of the framework wrappers' benchmark: `tsx scripts/bench/frameworks.ts --quick --json`
 * measures every case end to end (it throws unless each wrapped tool really ran) and prints one row
 * per framework, level and chain, every figure finite. No threshold: performance is never asserted.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import type { FrameworksResult } from '../../scripts/bench/frameworks.js';
import { ROOT, ensureGuestsBuilt, guestBuildDir } from '../helpers/guests.js';

let result: FrameworksResult;
beforeAll(async () => {
  await ensureGuestsBuilt('c', [join(guestBuildDir('c'), 'guard.wasm')]);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'frameworks.ts'), '--quick', '--json'], {
    cwd: ROOT,
    timeout: 240_000,
  });
  result = JSON.parse(stdout) as FrameworksResult;
}, 300_000);

it('measures each framework per tool call with every kind of chain, and per agent step, against the bare tool', () => {
  const keys = result.rows.map((r) => `${r.framework} ${r.level} ${r.chain}`);
  const perCall = (f: string) => ['empty', 'interceptor', 'component', 'subprocess'].map((c) => `${f} tool_call ${c}`);
  const perStep = (f: string) => ['empty', 'component'].map((c) => `${f} agent_step ${c}`);
  expect(new Set(keys)).toEqual(new Set([...perCall('ai'), ...perStep('ai'), ...perCall('openai-agents'), ...perStep('openai-agents')]));
  for (const r of result.rows) {
    for (const n of [r.bare.median_us, r.wrapped.median_us, r.added_us, r.ratio]) expect(Number.isFinite(n)).toBe(true);
  }
  expect(result.versions.ai).toMatch(/^6\./);
  expect(result.versions['@openai/agents']).toMatch(/^0\./);
});
