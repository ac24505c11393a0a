import type { HrTime } from '@opentelemetry/api';

/*
 * Span times from the runner's own `performance.now()` readings, handed to the SDK as `HrTime` (its
 * cheapest input: a number makes it read the clock again and convert; an `HrTime` it takes as it is).
 * The runner has measured every moment a span needs — the chain's start, each hook's duration, the
 * chain's end — so telemetry reads no clock of its own but the one `Date.now()` per chain that ties
 * the monotonic clock to the wall clock, as the SDK does for each span it times itself.
 */

const ORIGIN_MS = performance.timeOrigin;
/** The performance timeline's origin as an `HrTime`, kept apart from the offset so that nothing is lost to float precision. */
const ORIGIN_S = Math.trunc(ORIGIN_MS / 1000);
const ORIGIN_NS = Math.round((ORIGIN_MS - ORIGIN_S * 1000) * 1e6);

/**
 * How far the wall clock is from the performance timeline now, in ms: add it to a `performance.now()`
 * reading to get ms since the timeline's origin on the wall clock. The SDK reads the same per span
 * (`Date.now() − (performance.now() + timeOrigin)`): the timelines drift apart as the wall clock is
 * adjusted, and a span is placed where the wall clock says. One per chain keeps a chain's spans
 * exactly nested (two readings could differ by the `Date.now()` millisecond).
 */
export function wallOffsetMs(): number {
  return Date.now() - ORIGIN_MS - performance.now();
}

/** The wall-clock `HrTime` of a `performance.now()` reading, given the chain's {@link wallOffsetMs}. */
export function hrTimeOf(perfMs: number, offsetMs: number): HrTime {
  const ms = perfMs + offsetMs;
  const whole = Math.trunc(ms / 1000);
  let seconds = ORIGIN_S + whole;
  let nanos = ORIGIN_NS + Math.round((ms - whole * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  } else if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return [seconds, nanos];
}
