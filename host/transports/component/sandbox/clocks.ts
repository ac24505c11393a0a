import type * as WasiMonotonicClock from '../generated/interfaces/wasi-clocks-monotonic-clock.js';
import type * as WasiWallClock from '../generated/interfaces/wasi-clocks-wall-clock.js';
import { Pollable } from './io.js';

/*
 * Clocks are harmless to give a hook (a guard that stamps its decisions wants them). Not
 * preview2-shim's: its clock module imports the I/O worker machinery, which starts a thread.
 */

export const monotonicClock = {
  now: () => process.hrtime.bigint(),
  resolution: () => 1n,
  subscribeInstant: (when: bigint) => new Pollable(when),
  subscribeDuration: (duration: bigint) => new Pollable(process.hrtime.bigint() + duration),
} satisfies typeof WasiMonotonicClock;

export const wallClock = {
  now() {
    const ms = Date.now();
    return { seconds: BigInt(Math.floor(ms / 1000)), nanoseconds: (ms % 1000) * 1_000_000 };
  },
  resolution: () => ({ seconds: 0n, nanoseconds: 1_000_000 }),
} satisfies typeof WasiWallClock;
