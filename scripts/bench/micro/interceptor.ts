/** Block (d): the interceptor fast path against the transport's invoke today, on the TS guard. */
import { guard } from '../../../guest-examples/ts-interceptor/policies.js';
import { interceptorTransport } from '../../../host/index.js';
import { copyRequest, invokeInterceptor } from '../../../host/transports/in-process/fast-invoke.js';
import { REQUEST } from '../guests.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import type { MicroPlan } from './plan.js';

let sink: unknown;

export async function benchInterceptorPath(plan: MicroPlan): Promise<Block[]> {
  const transport = interceptorTransport(guard);
  const context = { hook: 'guard' };
  const calls = await measureInterleaved(
    {
      before: () => transport.invoke(REQUEST, context),
      after: () => {
        sink = invokeInterceptor(guard, REQUEST, 10_000);
      },
    },
    plan.fast,
  );
  const copies = await measureInterleaved(
    {
      before: () => {
        sink = structuredClone(REQUEST);
      },
      after: () => {
        sink = copyRequest(REQUEST);
      },
    },
    plan.fast,
  );
  void sink;
  return [
    { block: 'interceptor fast path', case: 'invoke (TS guard): today → sync first, timer only for a promise', before: calls.before, after: calls.after },
    { block: 'interceptor fast path', case: 'the request copy: structuredClone → JSON-value copy', before: copies.before, after: copies.after },
  ];
}
