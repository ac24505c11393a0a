import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HookCall, HookRunner, JsonValue, type Transport } from '../../host/index.js';
import { z } from 'zod';

/** One line of `guest-examples/policy-cases.jsonl`: a call to one example hook and what it must answer. */
export const PolicyCase = z.strictObject({
  name: z.string(),
  hook: z.enum(['guard', 'redact']),
  call: HookCall,
  expect: z.discriminatedUnion('decision', [
    z.strictObject({ decision: z.literal('allow') }),
    z.strictObject({ decision: z.literal('deny'), reason: z.string() }),
    z.strictObject({ decision: z.literal('modify'), input: JsonValue, reason: z.string() }),
    z.strictObject({ decision: z.literal('replace'), output: JsonValue, reason: z.string() }),
  ]),
});
export type PolicyCase = z.infer<typeof PolicyCase>;

export const POLICY_CASES_PATH = fileURLToPath(new URL('../../guest-examples/policy-cases.jsonl', import.meta.url));

/** The example-policy cases every guest language must pass. */
export function loadPolicyCases(): PolicyCase[] {
  return readFileSync(POLICY_CASES_PATH, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => PolicyCase.parse(JSON.parse(line)));
}

/**
 * Run every example-policy case against one language's `guard` and `redact` hooks. Each hook is
 * registered for the event the case's call is at, so a guest's off-event behaviour is exercised too.
 */
export function runPolicyCases(name: string, create: (hook: 'guard' | 'redact') => Transport | Promise<Transport>): void {
  describe(`example policies: ${name}`, () => {
    const runners: HookRunner[] = [];
    const transports = new Map<string, Promise<Transport>>();
    const transport = (hook: 'guard' | 'redact'): Promise<Transport> => {
      let t = transports.get(hook);
      if (!t) {
        t = Promise.resolve(create(hook));
        transports.set(hook, t);
      }
      return t;
    };
    afterAll(async () => {
      await Promise.all([...transports.values()].map(async (t) => (await t).close?.()));
    });
    for (const c of loadPolicyCases()) {
      it(`${c.hook}: ${c.name}`, async () => {
        // A runner whose close() does not close the shared transport: transports are closed once, above.
        const shared = await transport(c.hook);
        const runner = new HookRunner([{ name: c.hook, event: c.call.event, transport: { kind: shared.kind, invoke: (r, ctx) => shared.invoke(r, ctx) } }]);
        runners.push(runner);
        const outcome = await runner.run(c.call);
        const entry = outcome.trail[0];
        expect(entry?.failure).toBeUndefined();
        expect(entry?.decision).toBe(c.expect.decision);
        switch (c.expect.decision) {
          case 'allow':
            expect(outcome.decision).toBe('allow');
            if (outcome.event === 'pre_tool_use' && outcome.decision === 'allow') expect(outcome.modified).toBe(false);
            if (outcome.event === 'post_tool_use') expect(outcome.replaced).toBe(false);
            break;
          case 'deny':
            expect(outcome).toMatchObject({ decision: 'deny' });
            expect(outcome.event === 'pre_tool_use' && outcome.decision === 'deny' ? outcome.reason : outcome.event === 'post_tool_use' ? outcome.output : undefined).toBe(c.expect.reason);
            break;
          case 'modify':
            expect(outcome).toMatchObject({ decision: 'allow', modified: true, input: c.expect.input });
            expect(entry?.reason).toBe(c.expect.reason);
            break;
          case 'replace':
            expect(outcome).toMatchObject({ decision: 'allow', replaced: true, output: c.expect.output, is_error: c.call.event === 'post_tool_use' ? c.call.is_error : false });
            expect(entry?.reason).toBe(c.expect.reason);
            break;
        }
      });
    }
  });
}
