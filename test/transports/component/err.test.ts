import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../../helpers/guests.js';
import { CONTEXT, preRequest } from './requests.js';

const GUEST_MESSAGE = 'the guest refuses: policy store unavailable';

describe('component err(message): a failed hook, not an answer', () => {
  let transport: ComponentTransport;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    transport = componentTransport({ path: watGuest('err'), cache_dir: TEST_CACHE_DIR });
  });
  afterAll(async () => {
    await transport.close();
  });

  it('→ guest_error, and the instance is kept (err is an answer the component chose)', async () => {
    expect(await transport.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'guest_error' } });
    expect(await transport.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'guest_error' } });
  });

  it("carries the guest's message into the trail; the chain fails closed", async () => {
    const runner = new HookRunner([{ name: 'err', event: 'pre_tool_use', transport }]);
    const outcome = await runner.pre({ workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: 'ls' });
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail[0]?.failure?.code).toBe('guest_error');
    expect(outcome.trail[0]?.failure?.message).toContain(GUEST_MESSAGE);
  });
});
