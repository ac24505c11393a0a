/**
 * The building blocks of the hot path, each measured interleaved with the path it replaces:
 *
 *   tsx scripts/bench/micro/run.ts [--quick] [--json] [--cache-dir <dir>]
 *
 * `npm run bench` runs this in a fresh child process first (see scripts/bench.ts), so instances made
 * by the other cases cannot change the one-instance figures.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../guests.js';
import type { Block } from '../result.js';
import { benchCallPath } from './call-path.js';
import { benchDirectCall } from './direct.js';
import { benchInterceptorPath } from './interceptor.js';
import { benchMailbox } from './mailbox.js';
import { MICRO_FULL, MICRO_QUICK, type MicroPlan } from './plan.js';
import { benchValidators } from './validators.js';

export async function runBlocks(plan: MicroPlan, cacheDir: string, log: (message: string) => void): Promise<Block[]> {
  const out: Block[] = [];
  log('building blocks: fast validators');
  out.push(...(await benchValidators(plan)));
  log('building blocks: interceptor fast path');
  out.push(...(await benchInterceptorPath(plan)));
  log('building blocks: direct canonical-ABI call');
  out.push(...(await benchDirectCall(plan, cacheDir)));
  log('building blocks: SharedArrayBuffer mailbox');
  out.push(...(await benchMailbox(plan)));
  log('building blocks: the direct call in the transport, against the glue (metered and worker)');
  out.push(...(await benchCallPath(plan, cacheDir)));
  return out;
}

function text(blocks: readonly Block[]): string {
  const rows = blocks.map((b) => `${b.block} | ${b.case} | ${b.before.median_us} → ${b.after.median_us} µs (${(b.before.median_us / b.after.median_us).toFixed(1)}× faster)`);
  return `${rows.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, 'cache-dir': { type: 'string' } } });
  const cacheDir = values['cache-dir'] === undefined ? join(ROOT, '.cache', 'bench') : resolve(values['cache-dir']);
  const blocks = await runBlocks(values.quick === true ? MICRO_QUICK : MICRO_FULL, cacheDir, (m) => process.stderr.write(`[bench] ${m}\n`));
  process.stdout.write(values.json === true ? `${JSON.stringify(blocks)}\n` : text(blocks));
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`micro bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
