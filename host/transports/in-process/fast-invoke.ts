/**
 * The interceptor's call path (PERF-FINDINGS: ~10 µs → ~2.5): the request is copied as a JSON value
 * instead of `structuredClone`d; the interceptor is called synchronously first, and a timer (and an
 * abort listener) is armed only when it returns a promise. A synchronous answer is therefore returned
 * synchronously, so a chain whose every hook answers synchronously stays synchronous.
 *
 * The rules: a throw (or a rejected promise) is `interceptor_error`, an answer that is not a response
 * is `malformed_response`, a pending promise past `timeout_ms` is `timeout`, an abort while it is
 * pending is `timeout` ("interceptor aborted").
 */
import type { HookRequest } from '../../contract/request.js';
import type { HookResponse } from '../../contract/response.js';
import type { JsonValue } from '../../contract/json.js';
import { checkResponse } from '../../codec/wire.js';
import type { InvokeResult } from '../../runner/transport.js';

/** What an interceptor is called with and answers (interceptor.ts's `InterceptorFn`). */
export type InterceptorCall = (request: HookRequest) => HookResponse | Promise<HookResponse>;

/** Deeper than this, a value is copied by `structuredClone` (no recursion limit of ours to hit). */
const COPY_MAX_DEPTH = 512;

/**
 * A deep copy of a JSON value: fresh arrays and objects, primitives as they are. The value has been
 * validated as JSON by the runner; anything else met on the way (it cannot be, but a copy must never
 * share state) is copied by `structuredClone`.
 */
export function copyJson(value: JsonValue): JsonValue {
  return copy(value, 0);
}

function copy(value: JsonValue, depth: number): JsonValue {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= COPY_MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<JsonValue>(n);
    for (let i = 0; i < n; i++) out[i] = copy(value[i] as JsonValue, depth + 1);
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, JsonValue> = {};
  for (const key in value) {
    const item = value[key];
    // defineProperty: an own "__proto__" key stays a key (plain assignment would set the prototype).
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy(item as JsonValue, depth + 1), enumerable: true, writable: true, configurable: true });
    else out[key] = copy(item as JsonValue, depth + 1);
  }
  return out;
}

/** The interceptor's own copy of the request: it must not be able to change the chain's state in place. */
export function copyRequest(request: HookRequest): HookRequest {
  if (request.event === 'pre_tool_use') {
    return {
      hook_schema: request.hook_schema,
      event: 'pre_tool_use',
      workspace: request.workspace,
      agent_id: request.agent_id,
      tool_call_id: request.tool_call_id,
      tool_name: request.tool_name,
      input: copyJson(request.input),
    };
  }
  return {
    hook_schema: request.hook_schema,
    event: 'post_tool_use',
    workspace: request.workspace,
    agent_id: request.agent_id,
    tool_call_id: request.tool_call_id,
    tool_name: request.tool_name,
    input: copyJson(request.input),
    output: copyJson(request.output),
    is_error: request.is_error,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function threw(error: unknown): InvokeResult {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { ok: false, failure: { code: 'interceptor_error', message: `interceptor threw ${detail}` } };
}

/** An answer checked against the contract (the codec's check: the fast validator first, zod for the rest). */
function checked(answer: unknown): InvokeResult {
  const decoded = checkResponse(answer);
  return decoded.ok ? { ok: true, response: decoded.value } : { ok: false, failure: decoded.failure };
}

/**
 * Call `handle` on its own copy of `request`. Synchronous when the interceptor is (a value or a
 * throw); a promise only when it returns one, and only then are a `timeoutMs` timer and an abort
 * listener armed (both removed when it settles). Never rejects.
 */
export function invokeInterceptor(handle: InterceptorCall, request: HookRequest, timeoutMs: number, signal?: AbortSignal): InvokeResult | Promise<InvokeResult> {
  let answer: unknown;
  try {
    answer = handle(copyRequest(request));
  } catch (error) {
    return threw(error);
  }
  if (!isThenable(answer)) return checked(answer);
  return settle(answer, timeoutMs, signal);
}

function settle(pending: PromiseLike<unknown>, timeoutMs: number, signal: AbortSignal | undefined): Promise<InvokeResult> {
  if (signal?.aborted === true) return Promise.resolve({ ok: false, failure: { code: 'timeout', message: 'interceptor aborted' } });
  return new Promise<InvokeResult>((resolve) => {
    let done = false;
    const finish = (result: InvokeResult): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = (): void => finish({ ok: false, failure: { code: 'timeout', message: 'interceptor aborted' } });
    const timer = setTimeout(() => finish({ ok: false, failure: { code: 'timeout', message: `interceptor did not answer within ${timeoutMs} ms` } }), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      pending.then(
        (value) => finish(checked(value)),
        (error: unknown) => finish(threw(error)),
      );
    } catch (error) {
      // A thenable whose `then` itself throws.
      finish(threw(error));
    }
  });
}
