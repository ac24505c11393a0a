/**
 * Policy hooks under the operations features, like any hook: a Cedar hook in shadow mode records the
 * deny it would have made without making it, a CEL hook enforces, both are in the trail and the audit
 * stream, and the chain budget applies to them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cedarTransport, celTransport, HookRunner, type AuditEvent } from '../../host/index.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

describe('policy hooks under shadow mode, the audit stream and the budget', () => {
  it('a shadow Cedar hook records its deny; the enforcing CEL hook decides; both are audited, with the budget', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'tools.cedar': '@reason("no force-push (shadow)")\nforbid (principal, action, resource) when { context.input.command like "*--force*" };\npermit (principal, action, resource);\n' });
    const events: AuditEvent[] = [];
    const runner = new HookRunner(
      [
        { name: 'cedar-shadow', event: 'pre_tool_use', mode: 'shadow', transport: cedarTransport({ policies: path.join(dir, 'tools.cedar') }) },
        { name: 'cel', event: 'pre_tool_use', transport: celTransport({ event: 'pre_tool_use', rules: [{ when: "input.command.startsWith('sudo')", decision: 'deny', reason: 'no sudo' }] }) },
      ],
      { audit: (event) => events.push(event), budget_ms: { pre_tool_use: 5000 } },
    );
    const call = { workspace: '/repo', agent_id: 'a1', tool_call_id: 'c1', tool_name: 'shell', input: '{"command":"git push --force"}' };
    const outcome = await runner.pre(call, { wait_for_shadows: true });
    expect(outcome.decision).toBe('allow');
    expect(outcome.trail).toMatchObject([
      { hook: 'cedar-shadow', decision: 'deny', reason: 'no force-push (shadow)', shadow: true, budget: { budget_ms: 5000 } },
      { hook: 'cel', decision: 'allow', budget: { budget_ms: 5000 } },
    ]);
    const decided = events.filter((e) => e.type === 'hook_decided');
    expect(decided.map((e) => [e.type === 'hook_decided' ? e.hook : '', e.type === 'hook_decided' ? e.shadow : undefined])).toEqual(
      expect.arrayContaining([
        ['cedar-shadow', true],
        ['cel', false],
      ]),
    );
    expect(events.find((e) => e.type === 'chain_started')).toMatchObject({ hooks: ['cedar-shadow', 'cel'], budget_ms: 5000 });
    expect(await runner.pre({ ...call, input: '{"command":"sudo ls"}' })).toMatchObject({ decision: 'deny', reason: 'no sudo' });
    await runner.close();
  });
});
