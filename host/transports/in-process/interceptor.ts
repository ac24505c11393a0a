import type { HookRequest } from '../../contract/request.js';
import type { HookResponse } from '../../contract/response.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { invokeInterceptor } from './fast-invoke.js';
import { OptionsError } from '../../errors/options-error.js';

/**
 * An in-process hook: TypeScript code with the same request → response contract as any other hook.
 * No `hook_schema` check is needed — it is compiled against this package and cannot skew.
 */
export type InterceptorFn = (request: HookRequest) => HookResponse | Promise<HookResponse>;

/** An interceptor as a function or an object with a `handle` method. */
export type Interceptor = InterceptorFn | { handle: InterceptorFn };

/** Options for {@link interceptorTransport}. */
export interface InterceptorOptions {
  /**
   * Give up on an interceptor whose promise has not settled after this long (`timeout`). Default
   * 10000. Interceptors run in the host's own thread: a synchronous infinite loop cannot be stopped —
   * that is what the component transport is for.
   */
  readonly timeout_ms?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Make an interceptor a chain participant. It sits at its declared position and obeys the same
 * rules: a throw is `interceptor_error`, a non-response is `malformed_response`, a wrong decision
 * for the event is a failure (checked by the runner). Throws an `OptionsError` (`invalid_options`)
 * for a `timeout_ms` no timer can keep.
 *
 * @example
 * const guard = interceptorTransport((req) =>
 *   JSON.stringify(req.input).includes('--force') ? { decision: 'deny', reason: 'no force-push' } : { decision: 'allow' });
 */
export function interceptorTransport(interceptor: Interceptor, options: InterceptorOptions = {}): Transport {
  const handle: InterceptorFn = typeof interceptor === 'function' ? interceptor : (req) => interceptor.handle(req);
  const timeoutMs = options.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  // The longest a timer can wait; setTimeout turns anything larger (or 0, NaN) into "now".
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2 ** 31 - 1) {
    throw new OptionsError(`interceptor: timeout_ms must be an integer in [1, ${2 ** 31 - 1}], got ${String(options.timeout_ms)}`, { option: 'timeout_ms' });
  }
  return {
    kind: 'interceptor',
    invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult> {
      // A chain budget may leave the interceptor less than its own timeout: it gets whichever is shorter.
      const limitMs = context.deadline_ms !== undefined && context.deadline_ms < timeoutMs ? Math.max(1, Math.ceil(context.deadline_ms)) : timeoutMs;
      return invokeInterceptor(handle, request, limitMs, context.signal);
    },
  };
}
