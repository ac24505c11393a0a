/**
 * What of a hook call crosses into a guest worker and back (the engine's executor carries bytes and
 * an outcome envelope; this says what is inside): the request as bytes, laid out so the worker reads
 * its strings straight out of the mailbox, and the call's result as a JSON value. Both are validated
 * on arrival — the layout (every length within the message, fatal UTF-8), then the value through its
 * fast validator with zod as the arbiter (test/perf/fast-validators.test.ts proves they agree).
 *
 * Request bytes (little-endian): u32 hookSchema, u8 event (0 pre, 1 post), u8 flags (1 has output,
 * 2 has is-error, 4 is-error), then six (u32 byteLength, UTF-8 bytes) strings: workspace, agentId,
 * toolCallId, toolName, input, output (empty when absent).
 */
import * as z from 'zod';
import { WitDecision, WitHookRequest } from '../../codec/wit.js';
import type { Codec } from '../../engine/executor/codec.js';
import { isInt, isPlainRecord, keyCount } from '../../engine/fast-record.js';
import type { HookResult } from './binding.js';
import { decodeResult, encodeResult } from './result-bytes.js';

/** Bytes that are not a request of this layout: a bug (ours, or a worker that is not ours). */
export class RequestBytesError extends Error {
  override readonly name = 'RequestBytesError';
  readonly code = 'internal_error' as const;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `WitHookRequest` (strict) when obviously one. */
export function fastWitHookRequest(value: unknown): WitHookRequest | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { hookSchema, event, workspace, agentId, toolCallId, toolName, input, output, isError } = value as Record<string, unknown>;
  if (!isInt(hookSchema) || hookSchema < 0) return undefined;
  if (typeof workspace !== 'string' || typeof agentId !== 'string' || typeof toolCallId !== 'string') return undefined;
  if (typeof toolName !== 'string' || typeof input !== 'string') return undefined;
  const n = keyCount(value);
  if (event === 'pre-tool-use' && output === undefined && isError === undefined) {
    return n === 7 ? { hookSchema, event, workspace, agentId, toolCallId, toolName, input } : undefined;
  }
  if (event === 'post-tool-use' && typeof output === 'string' && typeof isError === 'boolean') {
    return n === 9 ? { hookSchema, event, workspace, agentId, toolCallId, toolName, input, output, isError } : undefined;
  }
  // Other combinations (a pre request with an output, a post one without) are valid WIT records
  // (both fields are options), rare, and zod's to judge.
  return undefined;
}

/** `WitDecision` when obviously one. */
export function fastWitDecision(value: unknown): WitDecision | undefined {
  if (!isPlainRecord(value)) return undefined;
  const n = keyCount(value);
  const val = value['val'];
  switch (value['tag']) {
    case 'allow':
      return n === 1 ? { tag: 'allow' } : undefined;
    case 'deny':
      return n === 2 && typeof val === 'string' ? { tag: 'deny', val } : undefined;
    case 'modify': {
      if (n !== 2 || !isPlainRecord(val)) return undefined;
      const { input, reason } = val as Record<string, unknown>;
      if (typeof input !== 'string') return undefined;
      const m = keyCount(val);
      if (reason === undefined) return m === 1 ? { tag: 'modify', val: { input } } : undefined;
      return m === 2 && typeof reason === 'string' ? { tag: 'modify', val: { input, reason } } : undefined;
    }
    case 'replace': {
      if (n !== 2 || !isPlainRecord(val)) return undefined;
      const { output, isError, reason } = val as Record<string, unknown>;
      if (typeof output !== 'string') return undefined;
      if (isError !== undefined && typeof isError !== 'boolean') return undefined;
      if (reason !== undefined && typeof reason !== 'string') return undefined;
      const expected = 1 + (isError === undefined ? 0 : 1) + (reason === undefined ? 0 : 1);
      if (keyCount(val) !== expected) return undefined;
      if (isError === undefined) return reason === undefined ? { tag: 'replace', val: { output } } : { tag: 'replace', val: { output, reason } };
      return reason === undefined ? { tag: 'replace', val: { output, isError } } : { tag: 'replace', val: { output, isError, reason } };
    }
    default:
      return undefined;
  }
}

/** A call's result as it crosses back (zod, the arbiter behind {@link fastHookResult}). */
export const HookResultSchema = z.discriminatedUnion('tag', [
  z.strictObject({ tag: z.literal('ok'), decision: WitDecision }),
  z.strictObject({ tag: z.literal('err'), message: z.string() }),
  z.strictObject({ tag: z.literal('too-large'), bytes: z.number().int().nonnegative() }),
]);

/** A {@link HookResult} when obviously one. */
export function fastHookResult(value: unknown): HookResult | undefined {
  if (!isPlainRecord(value) || keyCount(value) !== 2) return undefined;
  switch (value['tag']) {
    case 'ok': {
      const decision = fastWitDecision(value['decision']);
      return decision === undefined ? undefined : { tag: 'ok', decision };
    }
    case 'err': {
      const message = value['message'];
      return typeof message === 'string' ? { tag: 'err', message } : undefined;
    }
    case 'too-large': {
      const bytes = value['bytes'];
      return isInt(bytes) && bytes >= 0 ? { tag: 'too-large', bytes } : undefined;
    }
    default:
      return undefined;
  }
}

/** Write a string as (u32 byteLength, bytes) at `at`; the next offset, or -1 when it does not fit. */
function putString(into: Uint8Array, view: DataView, at: number, s: string): number {
  if (at + 4 > into.length) return -1;
  // A string of n UTF-16 units takes at most 3n bytes: when even that fits, encode in place.
  const room = into.length - at - 4;
  let written: number;
  if (s.length * 3 <= room) {
    written = encoder.encodeInto(s, into.subarray(at + 4, at + 4 + room)).written;
  } else {
    const bytes = encoder.encode(s);
    if (bytes.length > room) return -1;
    into.set(bytes, at + 4);
    written = bytes.length;
  }
  view.setUint32(at, written, true);
  return at + 4 + written;
}

/** Write `request` into `into`: the bytes written, or -1 when it does not fit. */
export function encodeRequest(request: WitHookRequest, into: Uint8Array): number {
  if (into.length < 6) return -1;
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  view.setUint32(0, request.hookSchema >>> 0, true);
  view.setUint8(4, request.event === 'post-tool-use' ? 1 : 0);
  const output = request.output;
  const isError = request.isError;
  view.setUint8(5, (output === undefined ? 0 : 1) | (isError === undefined ? 0 : 2) | (isError === true ? 4 : 0));
  let at = 6;
  for (const s of [request.workspace, request.agentId, request.toolCallId, request.toolName, request.input, output ?? '']) {
    at = putString(into, view, at, s);
    if (at < 0) return -1;
  }
  return at;
}

/** Read a request written by {@link encodeRequest}, checking every length and the UTF-8. */
export function decodeRequest(bytes: Uint8Array): WitHookRequest {
  if (bytes.length < 6) throw new RequestBytesError('the request is shorter than its fixed part');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hookSchema = view.getUint32(0, true);
  const event = view.getUint8(4);
  const flags = view.getUint8(5);
  if (event > 1 || flags > 7) throw new RequestBytesError(`invalid event ${event} or flags ${flags}`);
  const strings: string[] = [];
  let at = 6;
  for (let i = 0; i < 6; i++) {
    if (at + 4 > bytes.length) throw new RequestBytesError('the request ends inside a string length');
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > bytes.length) throw new RequestBytesError('a string of the request runs past its end');
    try {
      strings.push(decoder.decode(bytes.subarray(at, at + length)));
    } catch {
      throw new RequestBytesError('a string of the request is not UTF-8');
    }
    at += length;
  }
  if (at !== bytes.length) throw new RequestBytesError('bytes after the request');
  const [workspace = '', agentId = '', toolCallId = '', toolName = '', input = '', output = ''] = strings;
  const type = event === 1 ? 'post-tool-use' : 'pre-tool-use';
  // Literals, not spreads (one hidden class per shape): the fast validator then takes them as they are.
  let candidate: Record<string, unknown>;
  if ((flags & 3) === 3) candidate = { hookSchema, event: type, workspace, agentId, toolCallId, toolName, input, output, isError: (flags & 4) !== 0 };
  else if ((flags & 1) !== 0) candidate = { hookSchema, event: type, workspace, agentId, toolCallId, toolName, input, output };
  else if ((flags & 2) !== 0) candidate = { hookSchema, event: type, workspace, agentId, toolCallId, toolName, input, isError: (flags & 4) !== 0 };
  else candidate = { hookSchema, event: type, workspace, agentId, toolCallId, toolName, input };
  const fast = fastWitHookRequest(candidate);
  if (fast !== undefined) return fast;
  const parsed = WitHookRequest.safeParse(candidate);
  if (!parsed.success) throw new RequestBytesError(`invalid request: ${parsed.error.message}`);
  return parsed.data;
}

/** The most bytes {@link encodeRequest} can write for `request` (each UTF-16 unit at most 3 bytes). */
function maxRequestBytes(request: WitHookRequest): number {
  let n = 6 + 6 * 4;
  for (const s of [request.workspace, request.agentId, request.toolCallId, request.toolName, request.input, request.output ?? '']) n += 3 * s.length;
  return n;
}

/** The hook's codec for the engine's worker executor. */
export const hookCodec: Codec<WitHookRequest, HookResult> = {
  encodeArgs: encodeRequest,
  decodeArgs: decodeRequest,
  maxArgsBytes: maxRequestBytes,
  resultToJson: (value) => value,
  encodeResult,
  decodeResult,
  resultFromJson: (value) => fastHookResult(value) ?? HookResultSchema.safeParse(value).data,
};
