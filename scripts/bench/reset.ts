/**
 * What the default `state: "per_tenant"` costs when tenants alternate: for each example guest, the
 * median metered call from one tenant after another (a reset before every call) against the same
 * calls from one tenant (no reset), measured interleaved in one process. The difference is the reset.
 *
 *   npx tsx scripts/bench/reset.ts [--n 2000] [--isolation metered|worker] [--out bench/results/reset.json]
 *
 * Run `npm run build-guests` first. Prints a markdown table (µs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HookRequest } from '../../host/index.js';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { CALL, GUESTS } from './guests.js';

const { values } = parseArgs({ options: { n: { type: 'string', default: '2000' }, isolation: { type: 'string', default: 'metered' }, out: { type: 'string' } } });
const n = Number(values.n);
const isolation = values.isolation as ComponentIsolation;

const GUEST_IDS = ['wat', 'c', 'rust-std', 'rust-nostd', 'assemblyscript', 'js-quickjs', 'js-spidermonkey', 'ts-quickjs', 'ts-spidermonkey'];

function request(agent: string): HookRequest {
  return { hook_schema: 1, event: 'pre_tool_use', ...CALL, agent_id: agent };
}

function median(xs: number[]): number {
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? Number.NaN;
}

async function sample(t: ComponentTransport, agents: readonly string[]): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const req = request(agents[i % agents.length] ?? 'a');
    const started = performance.now();
    const result = await t.invoke(req, { hook: 'bench' });
    samples.push(performance.now() - started);
    if (!result.ok) throw new Error(`a call failed: ${JSON.stringify(result)}`);
  }
  return median(samples) * 1000;
}

const rows: string[] = [];
const results: Array<{ id: string; label: string; one_tenant_us: number; alternating_us: number; reset_us: number; per_call_us: number; shared_alternating_us: number }> = [];
for (const id of GUEST_IDS) {
  const guest = GUESTS.find((g) => g.id === id);
  if (guest === undefined) continue;
  const tenant = componentTransport({ path: guest.path, isolation, pool_size: 1, cache_dir: '.cache/bench-reset' });
  const perCall = componentTransport({ path: guest.path, isolation, pool_size: 1, cache_dir: '.cache/bench-reset', state: 'per_call' });
  const shared = componentTransport({ path: guest.path, isolation, pool_size: 1, cache_dir: '.cache/bench-reset', state: 'shared' });
  for (const t of [tenant, perCall, shared]) {
    await t.load();
    for (let i = 0; i < 500; i++) await t.invoke(request(`warm-${i % 2}`), { hook: 'bench' });
  }
  // Interleaved rounds: the machine's load moves all of them alike.
  const same: number[] = [];
  const alternating: number[] = [];
  const everyCall: number[] = [];
  const sharedAlternating: number[] = [];
  for (let round = 0; round < 3; round++) {
    same.push(await sample(tenant, ['a']));
    alternating.push(await sample(tenant, ['a', 'b']));
    everyCall.push(await sample(perCall, ['a']));
    sharedAlternating.push(await sample(shared, ['a', 'b']));
  }
  const base = median(same);
  const alt = median(alternating);
  const per = median(everyCall);
  const sh = median(sharedAlternating);
  results.push({ id, label: guest.label, one_tenant_us: base, alternating_us: alt, reset_us: alt - base, per_call_us: per, shared_alternating_us: sh });
  rows.push(`| ${guest.label} | ${base.toFixed(1)} | ${alt.toFixed(1)} | ${(alt - base).toFixed(1)} | ${per.toFixed(1)} | ${sh.toFixed(1)} |`);
  process.stderr.write(`${guest.label}: same tenant ${base.toFixed(1)} µs, alternating ${alt.toFixed(1)} µs, per_call ${per.toFixed(1)} µs, shared ${sh.toFixed(1)} µs\n`);
  await Promise.all([tenant, perCall, shared].map((t) => t.close()));
}

process.stdout.write(`State reset, ${isolation} isolation, median µs per call (${n} calls × 3 interleaved rounds)\n\n`);
process.stdout.write('| guest | per_tenant, one tenant | per_tenant, tenants alternating | reset | per_call | shared, alternating |\n|---|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
if (values.out !== undefined) {
  const file = resolve(values.out);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, cores: cpus().length, loadavg_end: loadavg(), isolation, n, guests: results }, null, 2)}\n`);
  process.stderr.write(`wrote ${file}\n`);
}
process.exit(0);
