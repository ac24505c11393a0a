import type { WitDecision, WitHookRequest } from '../../codec/wit.js';
import type * as Types from './generated/interfaces/basis-hook-types.js';

/*
 * The codec's WIT schemas (host/codec/wit.ts, hand-written zod: the core cannot import a transport's
 * generated files) must describe exactly what `jco types` generates from wit/hook.wit. If the WIT
 * changes and the codec does not follow, these aliases stop compiling.
 */

/** zod's optional fields accept an explicit `undefined`; jco's generated ones do not. Compare without it. */
type NoUndefined<T> = T extends object ? { [K in keyof T]: NoUndefined<Exclude<T[K], undefined>> } : T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type RequestMatchesWit = Assert<Same<NoUndefined<WitHookRequest>, Types.HookRequest>>;
export type DecisionMatchesWit = Assert<Same<NoUndefined<WitDecision>, Types.Decision>>;

/** A validated request as the generated handler type takes it (the same shape, checked above). */
export function asWitRequest(request: WitHookRequest): Types.HookRequest {
  return request as Types.HookRequest;
}
