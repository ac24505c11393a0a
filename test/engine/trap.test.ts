import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

describe('component trap: the instance is discarded, never reused', () => {
  const transports: ComponentTransport[] = [];
  beforeAll(ensureWatGuestsBuilt);
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.close()));
  });

  function open(guest: 'counter' | 'deep-recursion'): ComponentTransport {
    const t = componentTransport({ path: watGuest(guest), cache_dir: TEST_CACHE_DIR });
    transports.push(t);
    return t;
  }

  it('unreachable → trap, and the next call runs on a fresh instance', async () => {
    const counter = open('counter');
    expect(await counter.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 1 } } });
    expect(await counter.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: true, response: { input: { calls: 2 } } });
    expect(await counter.invoke(preRequest({}, 'trap'), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
    expect(await counter.invoke(preRequest(), CONTEXT)).toEqual({ ok: true, response: { decision: 'modify', input: { calls: 1 } } });
  });

  it('a stack overflow → trap, and the hook keeps answering', async () => {
    const deep = open('deep-recursion');
    expect(await deep.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
    expect(await deep.invoke(preRequest(), CONTEXT)).toMatchObject({ ok: false, failure: { code: 'trap' } });
  });

  it('traps at post_tool_use too', async () => {
    const counter = open('counter');
    const result = await counter.invoke(
      { hook_schema: 1, event: 'post_tool_use', workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'trap', input: {}, output: 'x', is_error: false },
      CONTEXT,
    );
    expect(result).toMatchObject({ ok: false, failure: { code: 'trap' } });
  });
});
