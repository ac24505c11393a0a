/**
 * A segment of a chain run in one hop: consecutive hooks whose components live in the same guest
 * workers (workers.ts), run one after another inside a worker with the chain's own rules
 * (runner/chain-core.ts) — each hook sees the state the previous one left, a deny ends the segment —
 * and the evaluations sent back for the runner to record as if it had run them one by one. The input
 * and the output cross the worker boundary as JSON and are validated on arrival (zod) on each side.
 */
import * as z from 'zod';
import { toWitRequest, type WitHookRequest } from '../../codec/wit.js';
import type { HookCall } from '../../contract/call.js';
import { isPlainJson } from '../../contract/fast/json.js';
import { fastHookResponse } from '../../contract/fast/response.js';
import { FailureCode, FailurePolicy } from '../../contract/failure.js';
import { JsonValue } from '../../contract/json.js';
import { isInt, isPlainRecord, keyCount, type Rec } from '../../engine/fast-record.js';
import { TrailEntry } from '../../contract/outcome.js';
import { HookResponse } from '../../contract/response.js';
import type { ProgramCall } from '../../engine/executor/worker-runtime.js';
import { judge, postView, preView, stepPost, stepPre, type Evaluated, type PostState, type PreState } from '../../runner/chain-core.js';
import type { HookResult } from './binding.js';
import { toInvokeResult } from './failures.js';

/** What the caller sends: the call's envelope, the state the segment starts from, and its hooks. */
export const SegmentInput = z.strictObject({
  call: z.strictObject({ workspace: z.string(), agent_id: z.string(), tool_call_id: z.string(), tool_name: z.string() }),
  state: z.discriminatedUnion('event', [
    z.strictObject({ event: z.literal('pre_tool_use'), input: JsonValue }),
    z.strictObject({ event: z.literal('post_tool_use'), input: JsonValue, output: JsonValue, is_error: z.boolean() }),
  ]),
  hooks: z.array(
    z.strictObject({
      slot: z.number().int().nonnegative(),
      name: z.string(),
      policy: FailurePolicy,
      timeoutMs: z.number().int().positive(),
      maxOutputBytes: z.number().int().positive(),
      memoryMb: z.number().int().positive(),
    }),
  ),
});
export type SegmentInput = z.infer<typeof SegmentInput>;

/** One hook's evaluation as it crosses back (chain-core.ts `Evaluated`). */
const EvaluatedSchema = z.strictObject({
  entry: TrailEntry,
  step: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('continue'), response: HookResponse.optional() }), z.strictObject({ kind: z.literal('deny'), reason: z.string() })]),
});

/** What the worker sends back: the evaluations of the hooks that ran, in order. */
export const SegmentOutput = z.strictObject({ evaluated: z.array(EvaluatedSchema) });

/*
 * Fast validators in front of the two schemas (they cross on every segment): each accepts only a
 * strict, obviously valid subset and returns what zod's parse returns; anything else goes to zod,
 * which decides (test/perf/fast-validators.test.ts proves they agree).
 */

function isPositiveInt(value: unknown): value is number {
  return isInt(value) && value > 0;
}

function fastHook(value: unknown): SegmentInput['hooks'][number] | undefined {
  if (!isPlainRecord(value) || keyCount(value) !== 6) return undefined;
  const { slot, name, policy, timeoutMs, maxOutputBytes, memoryMb } = value as Record<string, unknown>;
  if (!isInt(slot) || slot < 0 || typeof name !== 'string' || (policy !== 'deny' && policy !== 'allow')) return undefined;
  if (!isPositiveInt(timeoutMs) || !isPositiveInt(maxOutputBytes) || !isPositiveInt(memoryMb)) return undefined;
  return { slot, name, policy, timeoutMs, maxOutputBytes, memoryMb };
}

/** A {@link SegmentInput} when obviously one. */
export function fastSegmentInput(value: unknown): SegmentInput | undefined {
  if (!isPlainRecord(value) || keyCount(value) !== 3) return undefined;
  const { call, state, hooks } = value as Record<string, unknown>;
  if (!isPlainRecord(call) || keyCount(call) !== 4 || !isPlainRecord(state) || !Array.isArray(hooks)) return undefined;
  const { workspace, agent_id, tool_call_id, tool_name } = call as Record<string, unknown>;
  if (typeof workspace !== 'string' || typeof agent_id !== 'string' || typeof tool_call_id !== 'string' || typeof tool_name !== 'string') return undefined;
  const { event, input, output, is_error } = state as Record<string, unknown>;
  if (!isPlainJson(input)) return undefined;
  let checkedState: SegmentInput['state'];
  if (event === 'pre_tool_use' && keyCount(state) === 2) checkedState = { event, input };
  else if (event === 'post_tool_use' && keyCount(state) === 4 && isPlainJson(output) && typeof is_error === 'boolean') checkedState = { event, input, output, is_error };
  else return undefined;
  const checkedHooks: SegmentInput['hooks'] = [];
  for (const hook of hooks) {
    const checked = fastHook(hook);
    if (checked === undefined) return undefined;
    checkedHooks.push(checked);
  }
  return { call: { workspace, agent_id, tool_call_id, tool_name }, state: checkedState, hooks: checkedHooks };
}

const DECISIONS: ReadonlySet<unknown> = new Set(['allow', 'deny', 'modify', 'replace']);
const CODES: ReadonlySet<unknown> = new Set(FailureCode.options);
const ENTRY_KEYS: ReadonlySet<string> = new Set(['hook', 'decision', 'reason', 'failure', 'policy', 'stderr', 'stdout', 'ms']);

/** A trail entry of a segment (no budget, not a shadow) when obviously one. */
function fastEntry(value: unknown): TrailEntry | undefined {
  if (!isPlainRecord(value)) return undefined;
  for (const key in value) if (!ENTRY_KEYS.has(key)) return undefined;
  const { hook, decision, reason, failure, policy, stderr, stdout, ms } = value as Record<string, unknown>;
  if (typeof hook !== 'string' || !DECISIONS.has(decision) || typeof ms !== 'number' || !(ms >= 0) || !Number.isFinite(ms)) return undefined;
  if ((reason !== undefined && typeof reason !== 'string') || (stderr !== undefined && typeof stderr !== 'string') || (stdout !== undefined && typeof stdout !== 'string')) return undefined;
  if (policy !== undefined && policy !== 'deny' && policy !== 'allow') return undefined;
  const entry: TrailEntry = { hook, decision: decision as TrailEntry['decision'], ms };
  if (failure !== undefined) {
    if (!isPlainRecord(failure) || keyCount(failure) !== 2) return undefined;
    const { code, message } = failure as Rec;
    if (!CODES.has(code) || typeof message !== 'string') return undefined;
    entry.failure = { code: code as FailureCode, message };
  }
  if (reason !== undefined) entry.reason = reason;
  if (policy !== undefined) entry.policy = policy;
  if (stderr !== undefined) entry.stderr = stderr;
  if (stdout !== undefined) entry.stdout = stdout;
  return entry;
}

/** A {@link SegmentOutput} when obviously one. */
export function fastSegmentOutput(value: unknown): z.infer<typeof SegmentOutput> | undefined {
  if (!isPlainRecord(value) || keyCount(value) !== 1 || !Array.isArray(value['evaluated'])) return undefined;
  const evaluated: z.infer<typeof SegmentOutput>['evaluated'] = [];
  for (const one of value['evaluated'] as unknown[]) {
    if (!isPlainRecord(one) || keyCount(one) !== 2) return undefined;
    const entry = fastEntry(one['entry']);
    const step = one['step'];
    if (entry === undefined || !isPlainRecord(step)) return undefined;
    if (step['kind'] === 'deny') {
      const reason = step['reason'];
      if (keyCount(step) !== 2 || typeof reason !== 'string') return undefined;
      evaluated.push({ entry, step: { kind: 'deny', reason } });
    } else if (step['kind'] === 'continue') {
      const response = step['response'];
      if (response === undefined) {
        if (keyCount(step) !== 1) return undefined;
        evaluated.push({ entry, step: { kind: 'continue' } });
      } else {
        const checked = keyCount(step) === 2 ? fastHookResponse(response) : undefined;
        if (checked === undefined) return undefined;
        evaluated.push({ entry, step: { kind: 'continue', response: checked } });
      }
    } else return undefined;
  }
  return { evaluated };
}

/** Milliseconds since `started`, to the µs (the trail's `ms`, as the runner measures it). */
function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** Run a segment (in the worker): the embedder's program of the hook adapter's worker entry. */
export function runSegment(raw: unknown, call: ProgramCall<WitHookRequest, HookResult>): unknown {
  const input = fastSegmentInput(raw) ?? SegmentInput.parse(raw);
  const { state } = input;
  const hookCall = { event: state.event, ...input.call, input: state.input } as HookCall;
  const pre: PreState | undefined = state.event === 'pre_tool_use' ? { input: state.input, modified: false, view: undefined } : undefined;
  const post: PostState | undefined = state.event === 'post_tool_use' ? { input: state.input, output: state.output, isError: state.is_error, replaced: false, view: undefined } : undefined;
  const evaluated: Evaluated[] = [];
  for (const hook of input.hooks) {
    const view = pre !== undefined ? preView(hookCall, pre) : postView(hookCall, post as PostState);
    const started = performance.now();
    const outcome = call(hook.slot, toWitRequest(view.request, view.text));
    const result = toInvokeResult(outcome, { timeoutMs: hook.timeoutMs, maxOutputBytes: hook.maxOutputBytes, memoryMb: hook.memoryMb });
    // No checkInput in a segment: the judgement is synchronous.
    const judged = judge({ name: hook.name, policy: hook.policy }, 'component', result, elapsedMs(started), state.event) as Evaluated;
    evaluated.push(judged);
    const denied = pre !== undefined ? stepPre(pre, judged.step) : stepPost(post as PostState, judged.step);
    if (denied !== undefined) break;
  }
  return { evaluated };
}
