/**
 * Smoke test of the benchmark harness: `tsx scripts/bench.ts --quick --json` runs every case end to
 * end (real guests, real workers, real processes) and prints a result with every section, every
 * figure a finite number. (The client and framework tables printed beside the result have smoke
 * tests of their own: bench-frameworks.test.ts and the MCP/Claude Code suites.) No threshold on any value: performance is never asserted in tests.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUESTS } from '../../scripts/bench/guests.js';
import { BenchResultSchema, type BenchResult } from '../../scripts/bench/result.js';
import { BENCH_END, BENCH_START, SUMMARY_END, SUMMARY_START, markdownReport, replaceBlock, summaryTable } from '../../scripts/bench/report.js';
import { ROOT, TEST_CACHE_DIR, ensureGuestsBuilt } from '../helpers/guests.js';

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
  // As `npm run bench` starts it: the library from dist/ when it is fresh (`npm test` builds it first).
  // The suite's transpile cache (entries are keyed by content): the guests are compiled once per run.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', join(ROOT, 'scripts', 'bench', 'use-dist.mjs'), join(ROOT, 'scripts', 'bench.ts'), '--quick', '--json', '--no-clients', '--cache-dir', TEST_CACHE_DIR], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 420_000,
  });
  raw = JSON.parse(stdout);
  result = BenchResultSchema.parse(raw);
}, 450_000);

describe('npm run bench -- --quick --json', () => {
  it('prints a result of the documented shape in which every figure is a finite number', () => {
    const all = numbers(raw);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(([, n]) => !Number.isFinite(n))).toEqual([]);
  });

  it('measures the policy hooks beside their baselines (Cedar and its package, the decision cache, CEL and the JSON floor) and their load times', () => {
    const policies = result.policies;
    expect(policies).toBeDefined();
    expect(policies?.cedar.policies).toBe(50);
    expect(policies?.cel.rules).toBe(20);
    expect(policies?.load.map((row) => row.kind)).toEqual(['cedar', 'cel']);
    expect(markdownReport(result)).toContain('Targets of the policy issue');
  });

  it('records the machine it ran on', () => {
    expect(result.machine.cores).toBeGreaterThan(0);
    expect(result.machine.node).toBe(process.version);
    expect(result.machine.cpu).not.toBe('');
  });

  it('measures a component hook per guest language, next to its raw-call baselines (jco glue and direct)', () => {
    expect(result.components.map((c) => c.id)).toEqual(GUESTS.map((g) => g.id));
    for (const c of result.components) {
      // metered is null only when the host does not have the mode (or the guest failed in it, with a note).
      if (c.in_thread.metered_runner === null) expect(result.availability.metered === false || result.availability.notes.some((n) => n.includes(c.label))).toBe(true);
      // Every example guest is direct-callable (the planner accepts each one).
      expect(c.direct).toStrictEqual({ callable: true, reason: null });
      expect(c.in_thread.raw_direct).not.toBeNull();
      expect(c.worker.sab_round_trip.n).toBeGreaterThan(0);
    }
    if (!result.availability.metered) expect(result.availability.notes.join('\n')).toMatch(/metered/);
  });

  it('measures the peer (Extism, in-thread and worker) and the JSON floor in the same run', () => {
    expect(result.peer.in_thread.extism.n).toBeGreaterThan(0);
    expect(result.peer.worker.extism.n).toBeGreaterThan(0);
    expect(result.peer.in_thread.floor.n).toBeGreaterThan(0);
    expect(result.baselines.json_floor.n).toBeGreaterThan(0);
  });

  it('measures the other hooks and baselines: interceptor, subprocess (sh, node) beside bare spawns, a chain of 5, worker round trips', () => {
    expect(result.interceptor.runner.n).toBeGreaterThan(0);
    expect(result.subprocess.map((s) => s.id)).toEqual(['sh', 'node']);
    expect(result.chain.length).toBe(5);
    expect(result.chain.instances_of_one_component).toBe(5);
    // The chain in one hop (shared workers), one worker hook alone, and both with spinning workers.
    expect(result.chain.one_hop?.chain.n).toBeGreaterThan(0);
    expect(result.chain.one_hop?.one_hook.n).toBeGreaterThan(0);
    expect(result.chain.one_hop?.chain_spin.n).toBeGreaterThan(0);
    expect(result.baselines.post_round_trip.n).toBeGreaterThan(0);
    expect(result.baselines.sab_round_trip.n).toBeGreaterThan(0);
  });

  it('measures every building block against what it replaced or the fallback it keeps', () => {
    expect(new Set(result.blocks.map((b) => b.block))).toStrictEqual(
      new Set(['fast validators (zod the arbiter)', 'interceptor fast path', 'direct canonical-ABI call', 'SharedArrayBuffer mailbox', 'direct canonical-ABI call in the transport']),
    );
  });

  it('says which build of the library it measured', () => {
    expect(['dist', 'sources']).toContain(result.availability.library);
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

  it('computes the comparisons, with the issue\'s targets', () => {
    expect(result.ratios.some((r) => r.name.includes('bare spawn') && r.target !== null)).toBe(true);
    expect(result.ratios.some((r) => r.name.includes('interceptor') && r.target === '<= 1.5')).toBe(true);
    expect(result.ratios.some((r) => r.name.includes('SAB round trip') && r.target === '<= 1.3')).toBe(true);
    expect(result.ratios.some((r) => r.name.includes('one hop (shared workers) ÷ one worker hook') && r.target === '<= 2')).toBe(true);
    expect(result.ratios.some((r) => r.name.startsWith('one worker hook (runner; default: workers poll') && r.target === '<= 5')).toBe(true);
    if (result.availability.metered) {
      expect(result.ratios.some((r) => r.name.includes('metered runner ÷ JSON floor') && r.target === '<= 2')).toBe(true);
      expect(result.ratios.some((r) => r.name.includes('Extism in-thread') && r.target === '< 1')).toBe(true);
      expect(result.ratios.some((r) => r.name.startsWith('chain of 5 metered') && r.target === '<= 7')).toBe(true);
    }
  });
});

describe('the generated documentation blocks', () => {
  // That the committed blocks are what bench/results/latest.json renders to: test/docs/performance-blocks.test.ts.
  it('renders the quick run too, markers and all', () => {
    const block = markdownReport(result);
    const page = `# x\n\n## Performance\n\n${BENCH_START}\nstale figures\n${BENCH_END}\n\n## Next\n`;
    const rewritten = replaceBlock(page, block);
    expect(rewritten).toContain(block);
    expect(rewritten).not.toContain('stale figures');
    expect(rewritten.endsWith(`${BENCH_END}\n\n## Next\n`)).toBe(true);
    const readme = `# x\n\n${SUMMARY_START}\nstale\n${SUMMARY_END}\n`;
    const summary = replaceBlock(readme, summaryTable(result), 'README.md', SUMMARY_START, SUMMARY_END);
    expect(summary).toContain(summaryTable(result));
    expect(summary).not.toContain('stale');
  });
});
