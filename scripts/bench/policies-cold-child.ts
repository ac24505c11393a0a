/**
 * One cold-start measurement of a policy hook, in a fresh process: `policies-cold-child.ts cedar|cel`.
 * Prints `{cold_ms, warm_ms, import_ms}`: the first hook's load and first call (the engine imported
 * and compiled on the way), then a second hook of the same policy loaded and called in this process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALL } from './guests.js';

const kind = process.argv[2];
const t0 = performance.now();
const host = await import('../../host/index.js');
const importMs = performance.now() - t0;
const { cedarPolicySet, celRules } = await import('./policies.js');
const dir = await mkdtemp(join(tmpdir(), 'basis-bench-cold-policy-'));
try {
  const policies = join(dir, 'bench.cedar');
  await writeFile(policies, cedarPolicySet());
  const make = (): import('../../host/index.js').Transport => (kind === 'cedar' ? host.cedarTransport({ policies }) : host.celTransport({ rules: celRules(), event: 'pre_tool_use' }));
  const once = async (): Promise<number> => {
    const started = performance.now();
    const runner = new host.HookRunner([{ name: 'policy', event: 'pre_tool_use', transport: make() }]);
    const outcome = await runner.pre(CALL);
    const ms = performance.now() - started;
    await runner.close();
    if (outcome.decision !== 'allow') throw new Error(`expected allow, got ${JSON.stringify(outcome)}`);
    return ms;
  };
  const cold = await once();
  const warm = await once();
  process.stdout.write(`${JSON.stringify({ cold_ms: cold, warm_ms: warm, import_ms: importMs })}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
