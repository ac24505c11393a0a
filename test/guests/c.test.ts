/**
 * The C guests through the real component transport: the example policies (built from source, and the
 * committed prebuilt copies) and the `err` layout of the result area (`guest-error`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRunner, type HookCall } from '../../host/index.js';
import { componentTransport } from '../../host/transports/component/index.js';
import { GUESTS, PREBUILT_DIR, buildDir } from '../../scripts/guests/catalog.js';
import { TEST_CACHE_DIR as cache_dir, ensureGuestsBuilt } from '../helpers/guests.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

const C_BUILD_DIR = buildDir('c');
const C_PREBUILT_DIR = PREBUILT_DIR.c ?? '';
const ensureBuilt = (): Promise<void> => ensureGuestsBuilt('c', GUESTS.c.map((g) => g.out));

runPolicyCases('c', async (hook) => {
  await ensureBuilt();
  return componentTransport({ path: join(C_BUILD_DIR, `${hook}.wasm`), cache_dir });
});
runPolicyCases('c (prebuilt)', (hook) => componentTransport({ path: join(C_PREBUILT_DIR, `${hook}.wasm`), cache_dir }));

describe('c guest returning err(message)', () => {
  const calls: HookCall[] = [
    { workspace: '/w', agent_id: 'a', tool_call_id: 'c1', tool_name: 'shell', event: 'pre_tool_use', input: { command: 'ls' } },
    { workspace: '/w', agent_id: 'a', tool_call_id: 'c2', tool_name: 'shell', event: 'post_tool_use', input: { command: 'ls' }, output: 'x', is_error: false },
  ];
  for (const dir of [C_BUILD_DIR, C_PREBUILT_DIR]) {
    for (const call of calls) {
      it(`${dir === C_BUILD_DIR ? 'build' : 'prebuilt'}: is a guest_error at ${call.event}, and fails closed`, async () => {
        await ensureBuilt();
        const transport = componentTransport({ path: join(dir, 'conformance/guest-error.wasm'), cache_dir });
        const runner = new HookRunner([{ name: 'err', event: call.event, transport }]);
        try {
          const outcome = await runner.run(call);
          expect(outcome.decision).toBe('deny');
          expect(outcome.trail[0]?.failure?.code).toBe('guest_error');
        } finally {
          await runner.close();
        }
      });
    }
  }
});
