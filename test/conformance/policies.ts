/**
 * The conformance fixtures of the policy hooks: each behaviour a Cedar policy set or CEL rules can
 * express, as real policies run by the real engines. A policy decides allow or deny, so what it cannot
 * express — a rewrite, a malformed or oversized answer, silence, a hang — is skipped with the reason.
 */
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { cedarTransport, celTransport, interceptorTransport, type CelRule, type Transport } from '../../host/index.js';
import { DENY_REASON, WRAPPED_REASON, type Behaviour } from './behaviours.js';
import { answer } from './interceptor-answers.js';
import type { TransportFixture } from './suite.js';

const DECIDES_ONLY = 'a policy decides allow or deny: it cannot rewrite the input or the output';
const UNSUPPORTED_BY_POLICIES: Partial<Record<Behaviour, string>> = {
  'modify-wrap': DECIDES_ONLY,
  'replace-wrap': DECIDES_ONLY,
  'replace-error': DECIDES_ONLY,
  'replace-ok': DECIDES_ONLY,
  probe: `${DECIDES_ONLY} (what a policy sees is tested in test/transports/cedar and test/transports/cel)`,
  malformed: 'the transport builds every answer itself from the decision',
  silent: 'a policy always decides; there is no output to leave empty',
  oversized: 'the answer is the decision and its reason, built by the transport',
};

/** The rewrites a policy cannot make, made by interceptors around it: the chain vectors test the policy hook beside them. */
const BORROWED: NonNullable<TransportFixture['borrowed']> = {
  behaviours: ['modify-wrap', 'replace-wrap', 'replace-error', 'replace-ok', 'probe'],
  create: (behaviour, limits) => interceptorTransport((request) => answer(behaviour, request), { timeout_ms: limits.timeout_ms }),
};

const CEDAR_POLICIES: Partial<Record<Behaviour, string>> = {
  allow: 'permit (principal, action, resource);',
  deny: `permit (principal, action, resource);\n@reason(${JSON.stringify(DENY_REASON)})\nforbid (principal, action, resource);`,
  'deny-if-wrapped': [
    'permit (principal, action, resource);',
    `@reason(${JSON.stringify(WRAPPED_REASON)})`,
    'forbid (principal, action, resource) when {',
    '  (context.event == "pre_tool_use" && context has input && context.input has wrapped) ||',
    '  (context.event == "post_tool_use" && context has output && context.output has wrapped)',
    '};',
  ].join('\n'),
  // A type error on every call: Cedar skips the policy, and nothing else permits — never an allow.
  crash: 'permit (principal, action, resource) when { context.event + 1 == 2 };',
};

/** Cedar hooks: one policy set file per behaviour, in a directory removed after the suite. */
export function cedarFixture(): TransportFixture {
  let dir: Promise<string> | undefined;
  return {
    crashCode: 'policy_error',
    borrowed: BORROWED,
    unsupported: {
      ...UNSUPPORTED_BY_POLICIES,
      'empty-deny-reason': 'a blank @reason falls back to the policy\'s id: the transport never answers an empty reason',
      hang: 'Cedar\'s evaluation is bounded (no loops, no recursion): a policy cannot run forever',
    },
    async create(behaviour): Promise<Transport> {
      dir ??= mkdtemp(path.join(tmpdir(), 'basis-conformance-cedar-'));
      const file = path.join(await dir, `${behaviour}.cedar`);
      const text = CEDAR_POLICIES[behaviour];
      if (text === undefined) throw new Error(`no Cedar policy for ${behaviour}`);
      await writeFile(file, text);
      const transport = cedarTransport({ policies: file });
      await transport.load();
      return transport;
    },
    async teardown() {
      if (dir !== undefined) await rm(await dir, { recursive: true, force: true });
    },
  };
}

const CEL_RULES: Partial<Record<Behaviour, CelRule[]>> = {
  allow: [{ when: 'true', decision: 'allow' }],
  deny: [{ when: 'true', decision: 'deny', reason: DENY_REASON }],
  'deny-if-wrapped': [
    {
      when: "(event == 'pre_tool_use' && type(input) == map && 'wrapped' in input) || (event == 'post_tool_use' && type(output) == map && 'wrapped' in output)",
      decision: 'deny',
      reason: WRAPPED_REASON,
    },
  ],
  // A conversion that fails on every call.
  crash: [{ when: 'int(event) > 0', decision: 'deny', reason: 'never reached' }],
};

/** CEL hooks: the rules of each behaviour (no event given: the vectors register hooks at either). */
export function celFixture(): TransportFixture {
  return {
    crashCode: 'policy_error',
    borrowed: BORROWED,
    unsupported: {
      ...UNSUPPORTED_BY_POLICIES,
      'empty-deny-reason': 'a deny rule needs a reason that says something: refused when the hook is built',
      hang: 'a rule\'s cost is checked at load against its limit for any call up to 1 KiB, and metered past that (a timeout: test/transports/cel)',
    },
    async create(behaviour): Promise<Transport> {
      const rules = CEL_RULES[behaviour];
      if (rules === undefined) throw new Error(`no CEL rules for ${behaviour}`);
      const transport = celTransport({ rules });
      await transport.load();
      return transport;
    },
  };
}
