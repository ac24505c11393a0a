import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookRequest, InvokeResult } from '../../host/index.js';
import { COMPONENT_DEFAULTS, componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import type { StatePolicy } from '../../host/transports/component/options.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT } from '../transports/component/requests.js';

const SECRET = 'sk-tenant-a-do-not-leak-5e1f';

/** A call from a tenant (workspace, agent_id) to the secret keeper: "store", "grow", "table" or "echo". */
function from(tenant: 'a' | 'b', tool: string, input: Record<string, string> = {}): HookRequest {
  return { hook_schema: 1, event: 'pre_tool_use', workspace: `/ws/${tenant}`, agent_id: `tenant-${tenant}`, tool_call_id: 'c', tool_name: tool, input };
}

/** What "echo" gave back: the text it kept, or undefined when it kept nothing. */
function echoed(result: InvokeResult): string | undefined {
  if (!result.ok) throw new Error(`unexpected failure: ${JSON.stringify(result)}`);
  return result.response.decision === 'deny' ? result.response.reason : undefined;
}

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: no state crosses tenants unless asked for`, () => {
    const transports: ComponentTransport[] = [];
    let path: string;
    beforeAll(async () => {
      path = await hostileGuest('secret');
    });
    afterAll(async () => {
      await Promise.all(transports.map((t) => t.close()));
    });
    function open(state?: StatePolicy): ComponentTransport {
      // One worker: every call meets the same instance, as a single-agent runtime's would.
      const t = componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1, ...(state === undefined ? {} : { state }) });
      transports.push(t);
      return t;
    }
    const call = async (t: ComponentTransport, request: HookRequest): Promise<InvokeResult> => t.invoke(request, CONTEXT);

    it('by default (per_tenant), what tenant a left in memory, in a grown memory or in a table is gone for tenant b — and kept for tenant a', async () => {
      expect(COMPONENT_DEFAULTS.state).toBe('per_tenant');
      const t = open();
      for (const keep of ['store', 'grow', 'table']) {
        await call(t, from('a', keep, { secret: SECRET }));
        const own = echoed(await call(t, from('a', 'echo')));
        expect(own).toBeDefined(); // the guest does keep it: a's next call sees it
        const other = echoed(await call(t, from('b', 'echo')));
        expect(other).toBeUndefined();
        expect(JSON.stringify(await call(t, from('b', 'echo')))).not.toContain(SECRET);
      }
      // b's own state is b's, across b's calls.
      await call(t, from('b', 'store', { mine: 'b' }));
      expect(echoed(await call(t, from('b', 'echo')))).toBe('kept:{"mine":"b"}');
    });

    it('a tenant is the workspace and the agent together: the same agent in another workspace is another tenant', async () => {
      const t = open();
      await call(t, from('a', 'store', { secret: SECRET }));
      expect(echoed(await call(t, { ...from('a', 'echo'), workspace: '/ws/elsewhere' }))).toBeUndefined();
    });

    it('per_call: not even the same tenant sees what its previous call left', async () => {
      const t = open('per_call');
      await call(t, from('a', 'store', { secret: SECRET }));
      expect(echoed(await call(t, from('a', 'echo')))).toBeUndefined();
      await call(t, from('a', 'table'));
      expect(echoed(await call(t, from('a', 'echo')))).toBeUndefined();
    });

    it('shared: one instance for every caller, as before this option (the leak it allows, shown)', async () => {
      const t = open('shared');
      await call(t, from('a', 'store', { secret: SECRET }));
      expect(echoed(await call(t, from('b', 'echo')))).toBe(`kept:{"secret":"${SECRET}"}`);
    });

    it('refuses a state that is not one of per_call, per_tenant, shared, before anything loads', () => {
      expect(() => componentTransport({ path, state: 'per_agent' as StatePolicy })).toThrow(expect.objectContaining({ code: 'load_failed' }));
    });
  });
}
