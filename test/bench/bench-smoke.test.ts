/**
 * Smoke test of the benchmark harness: `tsx scripts/bench.ts --quick --json` runs every case end to
 * end (real guests, real workers, real processes) and prints a result with every section, every
 * figure a finite number. No threshold on any value: performance is never asserted in tests.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUESTS } from '../../scripts/bench/guests.js';
import { BenchResultSchema, type BenchResult } from '../../scripts/bench/result.js';
import { ROOT, ensureGuestsBuilt } from '../helpers/guests.js';

const run = promisify(execFile);

/** Every number anywhere in `value`, with its path. */
function numbers(value: unknown, path = '$'): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}.${k}`));
  return [];
}

let raw: unknown;
let result: BenchResult;

beforeAll(async () => {
  const byLang = new Map<string, string[]>();
  for (const g of GUESTS) byLang.set(g.lang, [...(byLang.get(g.lang) ?? []), g.path]);
  for (const [lang, outputs] of byLang) await ensureGuestsBuilt(lang, outputs);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench.ts'), '--quick', '--json'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 280_000,
  });
  raw = JSON.parse(stdout);
  result = BenchResultSchema.parse(raw);
}, 300_000);

describe('npm run bench -- --quick --json', () => {
  it('prints a result of the documented shape in which every figure is a finite number', () => {
    const all = numbers(raw);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(([, n]) => !Number.isFinite(n))).toEqual([]);
  });

  it('records the machine it ran on', () => {
    expect(result.machine.cores).toBeGreaterThan(0);
    expect(result.machine.node).toBe(process.version);
    expect(result.machine.cpu).not.toBe('');
  });

  it('measures a component hook per guest language, next to its raw-call baseline', () => {
    expect(result.components.map((c) => c.id)).toEqual(GUESTS.map((g) => g.id));
    for (const c of result.components) {
      // metered is null only when the host does not have the mode (or the guest failed in it, with a note).
      if (c.metered === null) expect(result.availability.metered === false || result.availability.notes.some((n) => n.includes(c.label))).toBe(true);
    }
    if (!result.availability.metered) expect(result.availability.notes.join('\n')).toMatch(/metered/);
  });

  it('measures the other hooks and baselines: interceptor, subprocess (sh, node) beside bare spawns, a chain of 5, a worker round trip', () => {
    expect(result.interceptor.runner.n).toBeGreaterThan(0);
    expect(result.subprocess.map((s) => s.id)).toEqual(['sh', 'node']);
    expect(result.chain.length).toBe(5);
    expect(result.baselines.worker_round_trip.n).toBeGreaterThan(0);
  });

  it('measures throughput with one and with several callers, and cold start with an empty and a warm cache', () => {
    const callers = new Set(result.concurrency.map((c) => c.callers));
    expect(callers.has(1)).toBe(true);
    expect(callers.size).toBe(2);
    expect(result.concurrency.some((c) => c.case.includes('worker'))).toBe(true);
    expect(result.concurrency.some((c) => c.case.includes('interceptor'))).toBe(true);
    expect(result.cold_start.length).toBeGreaterThan(0);
    for (const c of result.cold_start) {
      expect(c.cold.cache_hit).toBe(false);
      expect(c.warm.cache_hit).toBe(true);
      if (c.isolation === 'metered') expect([c.cold.meter_cache_hit, c.warm.meter_cache_hit]).toEqual([false, true]);
    }
  });

  it('computes the comparisons, with their targets', () => {
    expect(result.ratios.some((r) => r.name.includes('bare spawn') && r.target !== null)).toBe(true);
    if (result.availability.metered) expect(result.ratios.some((r) => r.name.includes('metered ÷ raw') && r.target === '<= 2')).toBe(true);
  });
});
