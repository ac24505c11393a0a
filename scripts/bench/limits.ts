/**
 * The sandbox's limits, measured: how long past `timeout_ms` each runaway of issue 8 holds a call, per
 * isolation, and how far the host's RSS grows under the memory bombs. The README's isolation section
 * quotes its output. Not part of `npm test` (which only holds each bound at deadline + 100 ms).
 *
 *   npx tsx scripts/bench/limits.ts [--runs 5] [--timeouts 20,100,1000] [--only pointer-chase,...]
 *
 * Prints a markdown table: per runaway and isolation, the worst and the median overshoot over every
 * run at every timeout, in ms.
 */
import { parseArgs } from 'node:util';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../hostile/build.js';
import { RUNAWAYS } from '../hostile/runaways.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    timeouts: { type: 'string', default: '20,100,1000' },
    only: { type: 'string' },
    'cache-dir': { type: 'string', default: '.cache/bench-limits' },
  },
});
const runs = Number(values.runs);
const timeouts = values.timeouts.split(',').map(Number);
const only = values.only?.split(',');
const cacheDir = values['cache-dir'];

function request(tool: string) {
  return { hook_schema: 1, event: 'pre_tool_use', workspace: '/w', agent_id: 'bench', tool_call_id: 'c', tool_name: tool, input: {} } as const;
}

async function timed(t: ComponentTransport, tool: string): Promise<{ ok: boolean; code: string | undefined; ms: number }> {
  const started = performance.now();
  const result = await t.invoke(request(tool), { hook: 'bench' });
  return { ok: result.ok, code: result.ok ? undefined : result.failure.code, ms: performance.now() - started };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN;
}

const rows: string[] = [];
const raw: Record<string, unknown> = {};
for (const runaway of RUNAWAYS) {
  if (only !== undefined && !only.includes(runaway.guest)) continue;
  const path = await hostileGuest(runaway.guest);
  const cells: string[] = [];
  for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
    const overshoots: number[] = [];
    const next: number[] = [];
    const missed: string[] = [];
    for (const timeoutMs of timeouts) {
      const t = componentTransport({ path, cache_dir: cacheDir, isolation, timeout_ms: timeoutMs, pool_size: 1 });
      await t.load();
      await timed(t, 'ok');
      await timed(t, 'ok');
      for (let i = 0; i < (timeoutMs >= 1000 ? Math.min(runs, 2) : runs); i++) {
        const ran = await timed(t, 'run');
        if (ran.code !== 'timeout') throw new Error(`${runaway.guest} ${isolation} ${timeoutMs}: ended ${ran.code ?? 'ok'}`);
        overshoots.push(ran.ms - timeoutMs);
        const after = await timed(t, 'ok');
        if (!after.ok) missed.push(`${timeoutMs} ms: ${after.code ?? ''}`);
        next.push(after.ms);
      }
      await t.close();
    }
    raw[`${runaway.guest}/${isolation}`] = { overshoots, next, missed };
    cells.push(`${Math.max(...overshoots).toFixed(1)} / ${median(overshoots).toFixed(1)}`, `${median(next).toFixed(1)} / ${Math.max(...next).toFixed(1)}${missed.length > 0 ? ` (${missed.length} missed)` : ''}`);
    process.stderr.write(`${runaway.guest} ${isolation}: overshoot max ${Math.max(...overshoots).toFixed(1)} ms, median ${median(overshoots).toFixed(1)} ms\n`);
  }
  rows.push(`| ${runaway.what} | ${cells.join(' | ')} |`);
}

process.stdout.write(`Runaways, timeout_ms ${timeouts.join(' / ')}, ${runs} runs each (1000 ms: 2): ms past the deadline, worst / median; then the next call (a fresh instance), median / worst ms and how many missed a deadline\n\n`);
process.stdout.write('| runaway | metered: past deadline | metered: next call | worker: past deadline | worker: next call |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(raw)}\n`);
