/**
 * The model sees only a fixed, short reason for a failed hook: its name, the failure code and the
 * code's fixed description. Messages, stderr and stdout stay in the trail.
 */
import { describe, expect, it } from 'vitest';
import { FAILURE_DESCRIPTIONS, FailureCode, HookRunner, subprocessTransport, type HookCall, type Transport } from '../../host/index.js';
import { hookArgv } from '../transports/subprocess/helpers.js';

const pre: HookCall = { event: 'pre_tool_use', workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: { command: 'ls' } };
const post: HookCall = { ...pre, event: 'post_tool_use', output: 'the tool output', is_error: false };

describe('what the model is told when a hook fails closed', () => {
  it('a crashed subprocess hook: no stderr, no stack trace, no host path, no secret; all of it in the trail', async () => {
    const transport = subprocessTransport({ command: hookArgv('crash-with-secrets') });
    const runner = new HookRunner([
      { name: 'crashy', event: 'pre_tool_use', transport },
      { name: 'crashy-post', event: 'post_tool_use', transport },
    ]);
    try {
      const denied = await runner.run(pre);
      expect(denied).toMatchObject({
        decision: 'deny',
        reason: 'hook "crashy" failed (exit_nonzero: the hook exited with an error); the call was denied (fail closed)',
      });
      const entry = denied.trail[0];
      expect(entry?.stderr).toContain('AWS_SECRET_ACCESS_KEY=abc123');
      expect(entry?.stderr).toContain('/home/alice/hooks/guard.mjs');
      expect(entry?.failure?.message).toContain('exited with code 1');

      const withheld = await runner.run(post);
      expect(withheld).toMatchObject({
        decision: 'deny',
        is_error: true,
        output: 'hook "crashy-post" failed (exit_nonzero: the hook exited with an error); the output was withheld (fail closed)',
      });
    } finally {
      await runner.close();
    }
  });

  it.each(FailureCode.options)('%s: the reason is the fixed text, whatever the message says', async (code) => {
    const secret = `SECRET-${code} /root/.ssh/id_rsa`;
    const transport: Transport = { kind: 'test', invoke: async () => ({ ok: false, failure: { code, message: secret }, logs: { stderr: secret, stdout: secret } }) };
    const runner = new HookRunner([{ name: `h-${code}`, event: 'pre_tool_use', transport }]);
    const outcome = await runner.run(pre);
    if (outcome.decision !== 'deny' || !('reason' in outcome)) throw new Error('expected a deny');
    expect(outcome.reason).toBe(`hook "h-${code}" failed (${code}: ${FAILURE_DESCRIPTIONS[code]}); the call was denied (fail closed)`);
    expect(outcome.reason).not.toContain('SECRET');
    expect(outcome.trail[0]).toMatchObject({ failure: { code, message: secret }, stderr: secret, stdout: secret });
  });

  it('every description is short, fixed text', () => {
    for (const code of FailureCode.options) {
      expect(FAILURE_DESCRIPTIONS[code].length).toBeGreaterThan(0);
      expect(FAILURE_DESCRIPTIONS[code].length).toBeLessThan(100);
    }
  });
});
