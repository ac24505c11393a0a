import type * as WasiMonotonicClock from './generated/interfaces/wasi-clocks-monotonic-clock.js';
import type * as WasiWallClock from './generated/interfaces/wasi-clocks-wall-clock.js';
import { Pollable, type Sleeper } from './io.js';
import type { ResourceLedger } from './resources.js';

/*
 * Clocks are harmless to give a hook (a guard that stamps its decisions wants them). Not
 * preview2-shim's: its clock module imports the I/O worker machinery, which starts a thread.
 */

/** `wasi:clocks/monotonic-clock` whose pollables wait with the sandbox's `sleep` and count in `ledger`. */
export function createMonotonicClock(sleep: Sleeper, ledger: ResourceLedger) {
  return {
    now: () => process.hrtime.bigint(),
    resolution: () => 1n,
    subscribeInstant: (when: bigint) => ledger.track(new Pollable(when, sleep), 'call'),
    subscribeDuration: (duration: bigint) => ledger.track(new Pollable(process.hrtime.bigint() + duration, sleep), 'call'),
  } satisfies typeof WasiMonotonicClock;
}

export const wallClock = {
  now() {
    const ms = Date.now();
    return { seconds: BigInt(Math.floor(ms / 1000)), nanoseconds: (ms % 1000) * 1_000_000 };
  },
  resolution: () => ({ seconds: 0n, nanoseconds: 1_000_000 }),
} satisfies typeof WasiWallClock;
