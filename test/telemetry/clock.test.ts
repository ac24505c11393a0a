/**
 * Span times from the runner's `performance.now()` readings (host/telemetry/clock.ts): the `HrTime`
 * given to the SDK is the wall-clock instant of the reading, to the nanosecond, for any reading and
 * any offset the wall clock may have drifted to — and the SDK, given the same reading as a number,
 * places the span at the same instant (up to the millisecond its own `Date.now()` can differ by).
 */
import fc from 'fast-check';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { hrTimeOf, wallOffsetMs } from '../../host/telemetry/clock.js';
import { testSdk } from './sdk.js';

const NS_PER_S = 1_000_000_000n;
const nanos = (t: readonly [number, number]): bigint => BigInt(t[0]) * NS_PER_S + BigInt(t[1]);
/** `ms` in whole nanoseconds, exactly: from the double's own bits (ms × 10⁶ as a double loses them past 2⁵³). */
function exactNanos(ms: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, ms);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent === 0 ? 0n : 1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075;
  const scaled = mantissa * 1_000_000n;
  if (power >= 0) return sign * (scaled << BigInt(power));
  const divisor = 1n << BigInt(-power);
  return sign * ((scaled + divisor / 2n) / divisor);
}
/** The instant exactly, from the same doubles: the origin, and the reading plus the offset. */
const exact = (perf: number, offset: number): bigint => exactNanos(performance.timeOrigin) + exactNanos(perf + offset);

describe('hrTimeOf', () => {
  it('is the wall-clock instant of a reading, in whole seconds and 0 ≤ nanoseconds < 10⁹', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e10, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true }), (perf, offset) => {
        const [seconds, ns] = hrTimeOf(perf, offset);
        expect(Number.isInteger(seconds) && Number.isInteger(ns)).toBe(true);
        expect(ns >= 0 && ns < 1e9).toBe(true);
        const diff = nanos([seconds, ns]) - exact(perf, offset);
        expect(diff >= -2n && diff <= 2n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('places a span where the SDK places it from the same reading', async () => {
    const sdk = testSdk();
    const tracer = sdk.tracerProvider.getTracer('clock');
    const reading = performance.now() - 3;
    // One offset for both ends (two Date.now() readings may differ by their millisecond): the chain's way.
    const offset = wallOffsetMs();
    tracer.startSpan('ours', { startTime: hrTimeOf(reading, offset) }, ROOT_CONTEXT).end(hrTimeOf(reading + 1, offset));
    tracer.startSpan('sdk', { startTime: reading }, ROOT_CONTEXT).end(reading + 1);
    const [ours, theirs] = sdk.spans();
    if (ours === undefined || theirs === undefined) throw new Error('two spans expected');
    // The SDK ties the timelines with Date.now() per span: a whole millisecond of freedom.
    const apart = nanos(ours.startTime) - nanos(theirs.startTime);
    expect(apart >= -1_500_000n && apart <= 1_500_000n).toBe(true);
    expect(nanos(ours.endTime) - nanos(ours.startTime)).toBe(1_000_000n);
    await sdk.shutdown();
  });
});
