/**
 * Cedar's answer, checked as it crosses back from the engine, and what it means for the hook:
 *
 * - `allow` with no evaluation error → allow;
 * - `deny` because `forbid` policies matched → deny, the reason their `@reason` annotations (or
 *   `denied by policy "<id>"`), joined by `; `; errors in other policies cannot change that (forbid
 *   overrides), so they only go to the trail (as the hook's stderr);
 * - `deny` because no `permit` matched → deny `no policy permits this call (tool "…")`;
 * - any other answer with an evaluation error — an allow (an erroring forbid might have denied), a deny
 *   by default (an erroring permit might have allowed) — or a request Cedar refuses (a context the
 *   schema does not allow) → the hook fails `policy_error`: Cedar skips a policy that errors, and a
 *   skipped policy must never turn into an allow.
 */
import * as z from 'zod';
import type { ExplanationItem } from '../../contract/explanation.js';
import type { HookRequest } from '../../contract/request.js';
import type { InvokeResult } from '../../runner/transport.js';
import { describeDiagnostic } from './diagnostics.js';
import type { LoadedPolicySet } from './policy-set.js';

const Diagnostic = z.object({
  message: z.string(),
  help: z.string().nullable().optional(),
  sourceLocations: z.array(z.object({ start: z.number(), end: z.number(), label: z.string().nullable().optional() })).optional(),
});

/** What `statefulIsAuthorized` answers (the fields read here). */
export const AuthorizationAnswer = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('success'),
    response: z.object({
      decision: z.enum(['allow', 'deny']),
      diagnostics: z.object({ reason: z.array(z.string()), errors: z.array(z.object({ policyId: z.string(), error: Diagnostic })) }),
    }),
  }),
  z.object({ type: z.literal('failure'), errors: z.array(Diagnostic) }),
]);
export type AuthorizationAnswer = z.infer<typeof AuthorizationAnswer>;

/** The usual answer (a decision, no errors) without zod's cost; zod reads everything else. */
export function checkAnswer(value: unknown): AuthorizationAnswer | undefined {
  const answer = value as { type?: unknown; response?: { decision?: unknown; diagnostics?: { reason?: unknown; errors?: unknown } } } | null;
  const diagnostics = answer?.response?.diagnostics;
  const decision = answer?.response?.decision;
  if (answer?.type === 'success' && (decision === 'allow' || decision === 'deny') && Array.isArray(diagnostics?.reason) && Array.isArray(diagnostics.errors) && diagnostics.errors.length === 0 && diagnostics.reason.every((id: unknown) => typeof id === 'string')) {
    return value as AuthorizationAnswer;
  }
  const parsed = AuthorizationAnswer.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function where(set: LoadedPolicySet, id: string): string {
  const policy = set.policies.get(id);
  return policy === undefined ? set.file : `${set.file}:${policy.line}:${policy.column}`;
}

function reasonOf(set: LoadedPolicySet, ids: readonly string[]): string {
  // A blank @reason is no reason: the model is told the policy's id rather than nothing.
  const reasons = ids.map((id) => {
    const reason = set.policies.get(id)?.reason;
    return reason !== undefined && reason.trim() !== '' ? reason : `denied by policy ${JSON.stringify(id)}`;
  });
  return [...new Set(reasons)].join('; ');
}

/** The deny when no policy permits the call. */
export function noPermit(request: HookRequest): string {
  return `no policy permits this call (tool ${JSON.stringify(request.tool_name)})`;
}

type Errors = Extract<AuthorizationAnswer, { type: 'success' }>['response']['diagnostics']['errors'];

function errorLines(set: LoadedPolicySet, errors: Errors): string {
  return errors
    .map(({ policyId, error }) => {
      const policy = set.policies.get(policyId);
      const described = policy === undefined ? `${set.file}: ${error.message}` : describeDiagnostic(set.file, set.text, error, policy.offset).text;
      return `policy ${JSON.stringify(policyId)} failed to evaluate: ${described}`;
    })
    .join('\n');
}

/** What an answer means for the hook (see the module's comment). */
export function resultOf(set: LoadedPolicySet, request: HookRequest, raw: unknown): InvokeResult {
  const answer = checkAnswer(raw);
  if (answer === undefined) return { ok: false, failure: { code: 'internal_error', message: 'the Cedar engine answered something that is not an authorization answer' } };
  if (answer.type === 'failure') {
    return { ok: false, failure: { code: 'policy_error', message: `Cedar refused the request: ${answer.errors.map((e) => e.message).join('; ')}` } };
  }
  const { decision, diagnostics } = answer.response;
  const errors = diagnostics.errors;
  const forbidden = decision === 'deny' ? diagnostics.reason.filter((id) => set.policies.get(id)?.effect === 'forbid') : [];
  if (decision === 'deny' && forbidden.length > 0) {
    const reason = reasonOf(set, forbidden);
    return errors.length === 0 ? { ok: true, response: { decision: 'deny', reason } } : { ok: true, response: { decision: 'deny', reason }, logs: { stderr: errorLines(set, errors) } };
  }
  if (errors.length > 0) {
    return { ok: false, failure: { code: 'policy_error', message: `${decision === 'allow' ? 'an allow' : 'a deny by default'} with ${errors.length} policy error(s), which could have changed it:\n${errorLines(set, errors)}` } };
  }
  return decision === 'allow' ? { ok: true, response: { decision: 'allow' } } : { ok: true, response: { decision: 'deny', reason: noPermit(request) } };
}

/** The same answer as `basis-hooks explain` shows it: the determining and the erroring policies. */
export function explainAnswer(set: LoadedPolicySet, request: HookRequest, raw: unknown): { readonly summary: string; readonly items: ExplanationItem[] } {
  const answer = checkAnswer(raw);
  if (answer === undefined) return { summary: 'the Cedar engine answered something unreadable', items: [] };
  if (answer.type === 'failure') return { summary: `Cedar refused the request: ${answer.errors.map((e) => e.message).join('; ')}`, items: [] };
  const { decision, diagnostics } = answer.response;
  const items: ExplanationItem[] = diagnostics.reason.map((id) => {
    const policy = set.policies.get(id);
    return { id, status: 'determining', ...(policy === undefined ? {} : { effect: policy.effect, where: where(set, id) }), ...(policy?.reason === undefined ? {} : { reason: policy.reason }) };
  });
  for (const { policyId, error } of diagnostics.errors) {
    items.push({ id: policyId, status: 'error', where: where(set, policyId), message: error.message });
  }
  const result = resultOf(set, request, raw);
  const verdict = result.ok ? (result.response.decision === 'deny' ? `deny: ${result.response.reason}` : 'allow') : `the hook fails (${result.failure.code})`;
  const by = diagnostics.reason.length === 0 ? (decision === 'deny' ? 'no policy permits the call' : 'no determining policy') : `determined by ${diagnostics.reason.map((id) => JSON.stringify(id)).join(', ')}`;
  return { summary: `Cedar: ${decision}, ${by}${diagnostics.errors.length === 0 ? '' : `, ${diagnostics.errors.length} policy error(s)`} → ${verdict}`, items };
}
