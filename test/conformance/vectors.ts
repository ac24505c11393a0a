import type { FailureCode, FailurePolicy, HookCall, HookEvent, JsonValue, ToolPattern, TrailEntry } from '../../host/index.js';
import { DENY_REASON, WRAPPED_REASON, type Behaviour } from './behaviours.js';

/** A hook in a vector's chain: a behaviour, where it runs, and what its failure does. */
export interface VectorHook {
  readonly behaviour: Behaviour;
  /** Defaults to the call's event. */
  readonly event?: HookEvent;
  readonly on_failure?: FailurePolicy;
  readonly tools?: readonly ToolPattern[];
}

/** A trail entry as a vector expects it: `ms`, failure messages and logs are not compared. */
export interface ExpectedTrailEntry {
  readonly hook: string;
  readonly decision: TrailEntry['decision'];
  readonly reason?: string;
  /** `crash` is resolved per transport (exit_nonzero, trap, interceptor_error). */
  readonly failure?: FailureCode | 'crash';
  readonly policy?: FailurePolicy;
}

export type ExpectedOutcome =
  | { readonly decision: 'allow'; readonly input: JsonValue; readonly modified: boolean; readonly trail: readonly ExpectedTrailEntry[] }
  | {
      readonly decision: 'deny';
      /** Exact reason, or fragments the reason must contain (a failure's reason names hook and code). */
      readonly reason: string | { readonly includes: readonly string[] };
      readonly trail: readonly ExpectedTrailEntry[];
    }
  | {
      readonly decision: 'allow' | 'deny';
      readonly output: JsonValue | { readonly includes: readonly string[] };
      readonly is_error: boolean;
      readonly replaced: boolean;
      readonly trail: readonly ExpectedTrailEntry[];
    };

/** One conformance vector: request → hook behaviours → expected outcome. */
export interface Vector {
  readonly name: string;
  readonly call: HookCall;
  readonly hooks: readonly VectorHook[];
  readonly expect: ExpectedOutcome;
}

/** The name a vector's i-th hook gets: position and behaviour, so trails read well. */
export function hookName(index: number, behaviour: Behaviour): string {
  return `h${index}-${behaviour}`;
}

const base = { workspace: '/nonexistent/ws', agent_id: 'agent-1', tool_call_id: 'call-1', tool_name: 'shell' } as const;
const pushInput = { command: 'git push --force origin main' };

function pre(input: JsonValue, tool_name = 'shell'): HookCall {
  return { ...base, tool_name, event: 'pre_tool_use', input };
}
function post(input: JsonValue, output: JsonValue, is_error = false, tool_name = 'shell'): HookCall {
  return { ...base, tool_name, event: 'post_tool_use', input, output, is_error };
}

const FAILURES: ReadonlyArray<{ behaviour: Behaviour; code: FailureCode | 'crash' }> = [
  { behaviour: 'empty-deny-reason', code: 'malformed_response' },
  { behaviour: 'malformed', code: 'malformed_response' },
  { behaviour: 'hang', code: 'timeout' },
  { behaviour: 'crash', code: 'crash' },
  { behaviour: 'silent', code: 'empty_output' },
  { behaviour: 'oversized', code: 'output_too_large' },
];

/** Every rule of the contract and the chain, as data. Every transport runs all of them. */
export const VECTORS: readonly Vector[] = [
  // ── each decision at each event ──────────────────────────────────────────────
  {
    name: 'pre: allow lets the call run with the parsed input, unmodified',
    call: pre(JSON.stringify(pushInput)),
    hooks: [{ behaviour: 'allow' }],
    expect: { decision: 'allow', input: pushInput, modified: false, trail: [{ hook: hookName(0, 'allow'), decision: 'allow' }] },
  },
  {
    name: 'pre: deny stops the call with its reason',
    call: pre(pushInput),
    hooks: [{ behaviour: 'deny' }],
    expect: { decision: 'deny', reason: DENY_REASON, trail: [{ hook: hookName(0, 'deny'), decision: 'deny', reason: DENY_REASON }] },
  },
  {
    name: 'pre: modify replaces the input; its reason goes to the trail only',
    call: pre(pushInput),
    hooks: [{ behaviour: 'modify-wrap' }],
    expect: {
      decision: 'allow',
      input: { wrapped: pushInput },
      modified: true,
      trail: [{ hook: hookName(0, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' }],
    },
  },
  {
    name: 'post: allow lets the output through unchanged',
    call: post(pushInput, 'Everything up-to-date'),
    hooks: [{ behaviour: 'allow' }],
    expect: { decision: 'allow', output: 'Everything up-to-date', is_error: false, replaced: false, trail: [{ hook: hookName(0, 'allow'), decision: 'allow' }] },
  },
  {
    name: 'post: deny shows the reason in place of the output, marked as an error',
    call: post(pushInput, 'AWS_SECRET_ACCESS_KEY=abc'),
    hooks: [{ behaviour: 'deny' }],
    expect: { decision: 'deny', output: DENY_REASON, is_error: true, replaced: false, trail: [{ hook: hookName(0, 'deny'), decision: 'deny', reason: DENY_REASON }] },
  },
  {
    name: 'post: replace without is_error rewrites the output and keeps the tool\'s claim',
    call: post(pushInput, { lines: ['a', 'b'] }, true),
    hooks: [{ behaviour: 'replace-wrap' }],
    expect: {
      decision: 'allow',
      output: { wrapped: { lines: ['a', 'b'] } },
      is_error: true,
      replaced: true,
      trail: [{ hook: hookName(0, 'replace-wrap'), decision: 'replace', reason: 'wrapped output' }],
    },
  },
  {
    name: 'post: replace with is_error true marks the result as an error',
    call: post(pushInput, 'fine', false),
    hooks: [{ behaviour: 'replace-error' }],
    expect: { decision: 'allow', output: 'replaced as error', is_error: true, replaced: true, trail: [{ hook: hookName(0, 'replace-error'), decision: 'replace' }] },
  },
  {
    name: 'post: replace with is_error false clears a tool error',
    call: post(pushInput, 'boom', true),
    hooks: [{ behaviour: 'replace-ok' }],
    expect: { decision: 'allow', output: 'replaced as ok', is_error: false, replaced: true, trail: [{ hook: hookName(0, 'replace-ok'), decision: 'replace' }] },
  },

  // ── wrong decision for the event: a failure, never reinterpreted ───────────
  {
    name: 'pre: replace is a wrong-event failure and fails closed',
    call: pre(pushInput),
    hooks: [{ behaviour: 'replace-wrap' }],
    expect: {
      decision: 'deny',
      reason: { includes: [hookName(0, 'replace-wrap'), 'wrong_decision_for_event'] },
      trail: [{ hook: hookName(0, 'replace-wrap'), decision: 'deny', failure: 'wrong_decision_for_event', policy: 'deny' }],
    },
  },
  {
    name: 'pre: replace under fail-open is skipped, not applied',
    call: pre(pushInput),
    hooks: [{ behaviour: 'replace-wrap', on_failure: 'allow' }],
    expect: {
      decision: 'allow',
      input: pushInput,
      modified: false,
      trail: [{ hook: hookName(0, 'replace-wrap'), decision: 'allow', failure: 'wrong_decision_for_event', policy: 'allow' }],
    },
  },
  {
    name: 'post: modify is a wrong-event failure; the output is withheld',
    call: post(pushInput, 'secret output'),
    hooks: [{ behaviour: 'modify-wrap' }],
    expect: {
      decision: 'deny',
      output: { includes: [hookName(0, 'modify-wrap'), 'wrong_decision_for_event'] },
      is_error: true,
      replaced: false,
      trail: [{ hook: hookName(0, 'modify-wrap'), decision: 'deny', failure: 'wrong_decision_for_event', policy: 'deny' }],
    },
  },

  // ── the input rule and the request envelope ────────────────────────────────
  {
    name: 'input: raw text that is not JSON reaches the hook as the raw string',
    call: pre('git push --force {origin'),
    hooks: [{ behaviour: 'modify-wrap' }],
    expect: { decision: 'allow', input: { wrapped: 'git push --force {origin' }, modified: true, trail: [{ hook: hookName(0, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' }] },
  },
  {
    name: 'input: raw text that is a JSON scalar reaches the hook parsed',
    call: pre('42'),
    hooks: [{ behaviour: 'modify-wrap' }],
    expect: { decision: 'allow', input: { wrapped: 42 }, modified: true, trail: [{ hook: hookName(0, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' }] },
  },
  {
    name: 'request: before the call hook_schema is 1 and output/is_error are absent',
    call: pre(JSON.stringify(pushInput)),
    hooks: [{ behaviour: 'probe' }],
    expect: {
      decision: 'allow',
      input: { hook_schema: 1, event: 'pre_tool_use', has_output: false, has_is_error: false, input: pushInput },
      modified: true,
      trail: [{ hook: hookName(0, 'probe'), decision: 'modify' }],
    },
  },
  {
    name: 'request: after the call output and is_error are present, even when the output is null',
    call: post(JSON.stringify(pushInput), null, true),
    hooks: [{ behaviour: 'probe' }],
    expect: {
      decision: 'allow',
      output: { hook_schema: 1, event: 'post_tool_use', has_output: true, has_is_error: true, input: pushInput, output: null, is_error: true },
      is_error: true,
      replaced: true,
      trail: [{ hook: hookName(0, 'probe'), decision: 'replace' }],
    },
  },

  // ── the chain: order, visibility, stopping, filtering ──────────────────────
  {
    name: 'chain: each hook sees the input as rewritten so far',
    call: pre('ls'),
    hooks: [{ behaviour: 'modify-wrap' }, { behaviour: 'modify-wrap' }],
    expect: {
      decision: 'allow',
      input: { wrapped: { wrapped: 'ls' } },
      modified: true,
      trail: [
        { hook: hookName(0, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' },
        { hook: hookName(1, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' },
      ],
    },
  },
  {
    name: 'chain: a later hook sees an earlier rewrite and can still refuse it',
    call: pre(pushInput),
    hooks: [{ behaviour: 'modify-wrap' }, { behaviour: 'deny-if-wrapped' }],
    expect: {
      decision: 'deny',
      reason: WRAPPED_REASON,
      trail: [
        { hook: hookName(0, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' },
        { hook: hookName(1, 'deny-if-wrapped'), decision: 'deny', reason: WRAPPED_REASON },
      ],
    },
  },
  {
    name: 'chain: deny-if-wrapped allows an input nobody rewrote',
    call: pre(pushInput),
    hooks: [{ behaviour: 'deny-if-wrapped' }],
    expect: { decision: 'allow', input: pushInput, modified: false, trail: [{ hook: hookName(0, 'deny-if-wrapped'), decision: 'allow' }] },
  },
  {
    name: 'chain: deny stops the chain; later hooks do not run',
    call: pre(pushInput),
    hooks: [{ behaviour: 'deny' }, { behaviour: 'modify-wrap' }],
    expect: { decision: 'deny', reason: DENY_REASON, trail: [{ hook: hookName(0, 'deny'), decision: 'deny', reason: DENY_REASON }] },
  },
  {
    name: 'chain: post hooks see the output as replaced so far',
    call: post('ls', 'a b'),
    hooks: [{ behaviour: 'replace-wrap' }, { behaviour: 'replace-wrap' }],
    expect: {
      decision: 'allow',
      output: { wrapped: { wrapped: 'a b' } },
      is_error: false,
      replaced: true,
      trail: [
        { hook: hookName(0, 'replace-wrap'), decision: 'replace', reason: 'wrapped output' },
        { hook: hookName(1, 'replace-wrap'), decision: 'replace', reason: 'wrapped output' },
      ],
    },
  },
  {
    name: 'chain: a post hook refuses a replaced output; replaced stays true',
    call: post('ls', 'a b'),
    hooks: [{ behaviour: 'replace-wrap' }, { behaviour: 'deny-if-wrapped' }, { behaviour: 'allow' }],
    expect: {
      decision: 'deny',
      output: WRAPPED_REASON,
      is_error: true,
      replaced: true,
      trail: [
        { hook: hookName(0, 'replace-wrap'), decision: 'replace', reason: 'wrapped output' },
        { hook: hookName(1, 'deny-if-wrapped'), decision: 'deny', reason: WRAPPED_REASON },
      ],
    },
  },
  {
    name: 'chain: a replaced is_error is what the next hook sees',
    call: post('ls', 'a', false),
    hooks: [{ behaviour: 'replace-error' }, { behaviour: 'probe' }],
    expect: {
      decision: 'allow',
      output: { hook_schema: 1, event: 'post_tool_use', has_output: true, has_is_error: true, input: 'ls', output: 'replaced as error', is_error: true },
      is_error: true,
      replaced: true,
      trail: [
        { hook: hookName(0, 'replace-error'), decision: 'replace' },
        { hook: hookName(1, 'probe'), decision: 'replace' },
      ],
    },
  },
  {
    name: 'matcher: hooks filtered out by tools do not run and are not in the trail',
    call: pre(pushInput, 'read_file'),
    hooks: [{ behaviour: 'deny', tools: ['shell'] }, { behaviour: 'modify-wrap', tools: ['read_*'] }, { behaviour: 'deny', tools: ['web_*', { regex: '^write' }] }],
    expect: { decision: 'allow', input: { wrapped: pushInput }, modified: true, trail: [{ hook: hookName(1, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' }] },
  },
  {
    name: 'matcher: a hook declared for the other event does not run',
    call: pre(pushInput),
    hooks: [{ behaviour: 'deny', event: 'post_tool_use' }, { behaviour: 'allow' }],
    expect: { decision: 'allow', input: pushInput, modified: false, trail: [{ hook: hookName(1, 'allow'), decision: 'allow' }] },
  },
  {
    name: 'matcher: no hook for the tool means allow with an empty trail',
    call: post('x', 'out', false, 'web_fetch'),
    hooks: [{ behaviour: 'deny', tools: ['shell'] }],
    expect: { decision: 'allow', output: 'out', is_error: false, replaced: false, trail: [] },
  },

  // ── the failure path: every failure, fail closed by default, fail open opt-in ──
  ...FAILURES.flatMap(({ behaviour, code }): Vector[] => [
    {
      name: `failure ${behaviour}: pre fails closed and the reason names the hook and the cause`,
      call: pre(pushInput),
      hooks: [{ behaviour }, { behaviour: 'allow' }],
      expect: {
        decision: 'deny',
        reason: { includes: [hookName(0, behaviour), code] },
        trail: [{ hook: hookName(0, behaviour), decision: 'deny', failure: code, policy: 'deny' }],
      },
    },
    {
      name: `failure ${behaviour}: post fails closed and withholds the output`,
      call: post(pushInput, 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
      hooks: [{ behaviour }],
      expect: {
        decision: 'deny',
        output: { includes: [hookName(0, behaviour), code] },
        is_error: true,
        replaced: false,
        trail: [{ hook: hookName(0, behaviour), decision: 'deny', failure: code, policy: 'deny' }],
      },
    },
    {
      name: `failure ${behaviour}: fail open skips the hook and the chain goes on`,
      call: pre(pushInput),
      hooks: [{ behaviour, on_failure: 'allow' }, { behaviour: 'modify-wrap' }],
      expect: {
        decision: 'allow',
        input: { wrapped: pushInput },
        modified: true,
        trail: [
          { hook: hookName(0, behaviour), decision: 'allow', failure: code, policy: 'allow' },
          { hook: hookName(1, 'modify-wrap'), decision: 'modify', reason: 'wrapped input' },
        ],
      },
    },
  ]),
];
