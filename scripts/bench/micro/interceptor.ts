/** Block (d): the interceptor's copy of the request, a JSON-value copy against `structuredClone` (what it replaced). */
import { copyRequest } from '../../../host/transports/in-process/fast-invoke.js';
import { REQUEST } from '../guests.js';
import type { Block } from '../result.js';
import { measureInterleaved } from '../stats.js';
import type { MicroPlan } from './plan.js';

let sink: unknown;

export async function benchInterceptorPath(plan: MicroPlan): Promise<Block[]> {
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
    { block: 'interceptor fast path', case: 'the request copy: structuredClone → JSON-value copy', before: copies.before, after: copies.after },
  ];
}
