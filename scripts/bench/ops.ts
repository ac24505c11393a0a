/**
 * What the operations features cost per call: one metered WAT guard (it allows the bench's call)
 * through `HookRunner.pre` — plain; with a no-op audit callback; with the audit file sink; with a
 * chain budget; with a shadow copy of the hook beside it — each a runner of its own, timed
 * interleaved sample by sample with the JSON floor, so load falls on all of them alike.
 *
 *   npx tsx scripts/bench/ops.ts [--n 20000] [--out bench/results/ops.json]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HookRunner, componentTransport, openAuditFile, type HookDefinition } from '../../host/index.js';
import { jsonFloor } from './baselines.js';
import { ANSWER, CALL, REQUEST, guestById } from './guests.js';
import { measureInterleaved, type Stats } from './stats.js';

const { values } = parseArgs({ options: { n: { type: 'string', default: '20000' }, out: { type: 'string' } } });
const n = Number(values.n);
const cacheDir = '.cache/bench';

const dir = await mkdtemp(join(tmpdir(), 'basis-ops-bench-'));
const transport = componentTransport({ path: guestById('wat').path, cache_dir: cacheDir });
const shadowTransport = componentTransport({ path: guestById('wat').path, cache_dir: cacheDir });
await Promise.all([transport.load(), shadowTransport.load()]);
// The runners share the transports; none of them closes them (they are closed once, at the end).
const shared = (t: typeof transport): HookDefinition['transport'] => ({ kind: t.kind, invoke: (r, c) => t.invoke(r, c) });
const hook: HookDefinition = { name: 'guard', event: 'pre_tool_use', transport: shared(transport) };
const sink = await openAuditFile(join(dir, 'audit.jsonl'));
const runners = {
  plain: new HookRunner([hook]),
  audit_callback: new HookRunner([hook], { audit: () => undefined }),
  audit_file: new HookRunner([hook], { audit: sink }),
  budget: new HookRunner([hook], { budget_ms: { pre_tool_use: 1000 } }),
  shadow: new HookRunner([hook, { name: 'guard-shadow', event: 'pre_tool_use', mode: 'shadow', transport: shared(shadowTransport) }]),
};
for (const [name, runner] of Object.entries(runners)) {
  const outcome = await runner.pre(CALL);
  if (outcome.decision !== 'allow') throw new Error(`${name}: expected allow, got ${JSON.stringify(outcome)}`);
}
const m = await measureInterleaved(
  {
    floor: jsonFloor(REQUEST, ANSWER),
    plain: () => runners.plain.pre(CALL),
    audit_callback: () => runners.audit_callback.pre(CALL),
    audit_file: () => runners.audit_file.pre(CALL),
    budget: () => runners.budget.pre(CALL),
    shadow: () => runners.shadow.pre(CALL),
  },
  { n, warmup: 5000 },
);
await runners.audit_file.close();
await Promise.all([transport.close(), shadowTransport.close()]);
await rm(dir, { recursive: true, force: true });

const rows = Object.entries(m as Record<string, Stats>).map(([name, s]) => `| ${name.replace('_', ' ')} | ${s.median_us} | ${(s.median_us / m.floor.median_us).toFixed(1)}× |`);
process.stdout.write(`Operations features, one metered WAT guard through HookRunner.pre, median µs (${n} interleaved samples each; load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')})\n\n| case | median µs | × JSON floor |\n|---|---:|---:|\n${rows.join('\n')}\n`);
if (values.out !== undefined) {
  const file = resolve(values.out);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, cores: cpus().length, loadavg_end: loadavg(), n, cases: m }, null, 2)}\n`);
}
process.exit(0);
