import * as z from 'zod';
import type { HookRequest } from '../contract/request.js';
import type { HookResponse } from '../contract/response.js';
import { JSON_LIMITS } from '../contract/limits.js';
import type { RequestText } from './request.js';
import { parseJsonText } from './json-text.js';
import { checkResponse, type Decoded } from './wire.js';

/*
 * The WIT side of the contract (wit/hook.wit) as jco lifts and lowers it: camelCase fields, enums as
 * kebab-case strings, `option<T>` as an absent (or undefined) field, variants as `{ tag, val }`. JSON
 * values cross as JSON text. These schemas validate what crosses the worker boundary; the component
 * transport checks at compile time that they agree with the types `jco types` generates from the WIT.
 */

/** `basis:hook/types.hook-request`: what a component's `handle` receives. */
export const WitHookRequest = z.strictObject({
  hookSchema: z.number().int().nonnegative(),
  event: z.enum(['pre-tool-use', 'post-tool-use']),
  workspace: z.string(),
  agentId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  /** JSON text of the input (a raw-string input is a JSON string literal). */
  input: z.string(),
  /** JSON text of the output; absent before the call. */
  output: z.string().optional(),
  /** Absent before the call. */
  isError: z.boolean().optional(),
});
export type WitHookRequest = z.infer<typeof WitHookRequest>;

/** `basis:hook/types.decision`: what a component's `handle` answers with (inside `ok`). */
export const WitDecision = z.discriminatedUnion('tag', [
  z.strictObject({ tag: z.literal('allow') }),
  z.strictObject({ tag: z.literal('deny'), val: z.string() }),
  z.strictObject({
    tag: z.literal('modify'),
    val: z.strictObject({ input: z.string(), reason: z.string().optional() }),
  }),
  z.strictObject({
    tag: z.literal('replace'),
    val: z.strictObject({ output: z.string(), isError: z.boolean().optional(), reason: z.string().optional() }),
  }),
]);
export type WitDecision = z.infer<typeof WitDecision>;

/**
 * The request as a component receives it: `input`/`output` as JSON text, `output`/`isError` absent
 * (`none`) before the call — never null. `given`, when it is this request's, is its JSON text already
 * made (the runner makes it once per chain state); otherwise the text is made here. Whole literals: this runs
 * on every component call.
 */
export function toWitRequest(request: HookRequest, given?: RequestText): WitHookRequest {
  const text = given?.request === request ? given : undefined;
  if (request.event === 'pre_tool_use') {
    return {
      hookSchema: request.hook_schema,
      event: 'pre-tool-use',
      workspace: request.workspace,
      agentId: request.agent_id,
      toolCallId: request.tool_call_id,
      toolName: request.tool_name,
      input: text?.input ?? JSON.stringify(request.input),
    };
  }
  return {
    hookSchema: request.hook_schema,
    event: 'post-tool-use',
    workspace: request.workspace,
    agentId: request.agent_id,
    toolCallId: request.tool_call_id,
    toolName: request.tool_name,
    input: text?.input ?? JSON.stringify(request.input),
    output: text?.output ?? JSON.stringify(request.output),
    isError: request.is_error,
  };
}

/**
 * Bytes of what a guest returned that the output cap counts: the reason and the rewritten input or
 * output (UTF-8). Used before the decision crosses the worker boundary and again when it is mapped.
 */
export function witDecisionSize(decision: WitDecision): number {
  switch (decision.tag) {
    case 'allow':
      return 0;
    case 'deny':
      return Buffer.byteLength(decision.val, 'utf8');
    case 'modify':
      return Buffer.byteLength(decision.val.input, 'utf8') + Buffer.byteLength(decision.val.reason ?? '', 'utf8');
    case 'replace':
      return Buffer.byteLength(decision.val.output, 'utf8') + Buffer.byteLength(decision.val.reason ?? '', 'utf8');
  }
}

function parseGuestJson(text: string, what: string): Decoded<unknown> {
  // Held to the same rules as a subprocess's answer: within the limits, no key named twice.
  const read = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth, rejectDuplicateKeys: true });
  if (read.ok) return { ok: true, value: read.value };
  const excerpt = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  const message = read.problem === 'syntax' ? `${what} is not JSON text (${read.message}): ${JSON.stringify(excerpt)}` : `${what} ${read.message}`;
  return { ok: false, failure: { code: 'malformed_response', message } };
}

/**
 * Map a component's decision to the wire response and validate it exactly as subprocess stdout is
 * validated: over `maxOutputBytes` → `output_too_large`; JSON text that does not parse →
 * `malformed_response`; then the contract's own checks (an empty deny reason is malformed). Whether
 * the decision fits the event is the runner's rule, not checked here.
 */
export function fromWitDecision(decision: WitDecision, maxOutputBytes: number): Decoded<HookResponse> {
  const size = witDecisionSize(decision);
  if (size > maxOutputBytes) {
    return { ok: false, failure: { code: 'output_too_large', message: `the guest returned ${size} bytes (cap ${maxOutputBytes})` } };
  }
  let response: Record<string, unknown>;
  switch (decision.tag) {
    case 'allow':
      response = { decision: 'allow' };
      break;
    case 'deny':
      response = { decision: 'deny', reason: decision.val };
      break;
    case 'modify': {
      const input = parseGuestJson(decision.val.input, 'modify input');
      if (!input.ok) return input;
      response = { decision: 'modify', input: input.value };
      if (decision.val.reason !== undefined) response.reason = decision.val.reason;
      break;
    }
    case 'replace': {
      const output = parseGuestJson(decision.val.output, 'replace output');
      if (!output.ok) return output;
      response = { decision: 'replace', output: output.value };
      if (decision.val.isError !== undefined) response.is_error = decision.val.isError;
      if (decision.val.reason !== undefined) response.reason = decision.val.reason;
      break;
    }
  }
  return checkResponse(response);
}
