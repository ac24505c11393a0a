/**
 * A caller's AbortSignal may serve every call of a long run (the CLI's does): no transport may leave
 * a listener on it per call.
 */
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRunner, interceptorTransport, subprocessTransport } from '../../host/index.js';
import { componentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, WAT_CONFORMANCE_DIR, ensureWatGuestsBuilt } from '../helpers/guests.js';

describe('one signal for many calls', () => {
  it('leaves no abort listener behind, whatever the transports', async () => {
    await ensureWatGuestsBuilt();
    const runner = new HookRunner([
      { name: 'interceptor', event: 'pre_tool_use', transport: interceptorTransport(() => ({ decision: 'allow' })) },
      { name: 'metered', event: 'pre_tool_use', transport: componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'allow.wasm'), cache_dir: TEST_CACHE_DIR }) },
      { name: 'worker', event: 'pre_tool_use', transport: componentTransport({ path: join(WAT_CONFORMANCE_DIR, 'allow.wasm'), isolation: 'worker', cache_dir: TEST_CACHE_DIR }) },
      { name: 'subprocess', event: 'pre_tool_use', tools: ['sub'], transport: subprocessTransport({ command: ['/bin/sh', '-c', 'cat >/dev/null; echo \'{"decision":"allow"}\''] }) },
    ]);
    const signal = new AbortController().signal;
    try {
      for (let i = 0; i < 200; i++) {
        const tool = i % 50 === 0 ? 'sub' : 'shell';
        const outcome = await runner.run({ event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: `c${i}`, tool_name: tool, input: {} }, { signal });
        expect(outcome.decision).toBe('allow');
      }
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      await runner.close();
    }
  });
});
