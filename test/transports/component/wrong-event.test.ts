import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../../helpers/guests.js';

describe('component answering with the other event\'s decision', () => {
  let transport: ComponentTransport;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    transport = componentTransport({ path: watGuest('wrong-event'), cache_dir: TEST_CACHE_DIR });
  });
  afterAll(async () => {
    await transport.close();
  });

  it('the transport passes the decision on; the runner fails it wrong_decision_for_event, at pre and at post', async () => {
    const runner = new HookRunner([
      { name: 'wrong-pre', event: 'pre_tool_use', transport },
      { name: 'wrong-post', event: 'post_tool_use', transport },
    ]);
    const pre = await runner.pre({ workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: 'ls' });
    expect(pre).toMatchObject({ decision: 'deny', trail: [{ hook: 'wrong-pre', failure: { code: 'wrong_decision_for_event' } }] });
    const post = await runner.post({ workspace: '/ws', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: 'ls', output: 'secret', is_error: false });
    expect(post).toMatchObject({ decision: 'deny', is_error: true, trail: [{ hook: 'wrong-post', failure: { code: 'wrong_decision_for_event' } }] });
  });
});
