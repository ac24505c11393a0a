/**
 * Fuel metering of a core WebAssembly module by rewriting its bytes. The module gets a mutable i64
 * counter (exported as {@link FUEL_EXPORT}) and code that charges it for the work it does; when the
 * counter drops below zero, the code asks the host for the next slice (`$refuel`). The host compares
 * the clock with the call's deadline each time and grants a slice or stops the guest, which then
 * traps on an `unreachable` — a trap no WebAssembly `catch` can intercept.
 *
 * What is charged (units; see costs.ts for the measured cost behind each):
 * - each function body is cut into **segments** at every point control can reach other than by
 *   falling through (the entry, loop headers, `if`/`else`/`catch` arms, the end of a construct that a
 *   branch targets) and after every conditional branch; a segment subtracts the units of its
 *   instructions when it is entered, so code pays for what it runs;
 * - the counter is **checked** only at function entries and loop headers (each iteration: every
 *   back-edge lands there), which also cost {@link CHARGE_POINT_UNITS} (plus the function's locals, and
 *   unwinding in modules that can throw): every unbounded run passes one, and between two checks the
 *   code is straight or branches forward, so the overrun is bounded by one function body;
 * - **bulk operations** (`memory.fill/copy/init`, `table.fill/copy/init`) become calls to stubs that
 *   run them in chunks, each charged by size before it runs;
 * - **`memory.grow` and `table.grow`** become calls to the host, which checks the deadline and the
 *   component's memory cap (all its memories and tables together) and grows, or refuses (-1).
 *
 * **Where the counter lives while a function runs: in a local.** Every function gets one more i64
 * local (appended to its declarations: its index is parameters + declared locals), loaded from the
 * global by the entry's charge; the charges and checks work on it. The global must hold the count
 * whenever other code may read or change it, and the local must be reloaded after, so the rewrite
 * copies it (class CounterCopies, only where the current copy is the wrong one):
 * - local → global before every instruction that leaves the frame or reaches other code: `call`,
 *   `call_indirect`, the stub calls that replace grows and bulk operations, `return`, `return_call*`,
 *   a branch to the function's own label, the final `end`, `throw`, `rethrow` and `unreachable`.
 *   `$refuel` is reached through `$refuel_local`, which takes the count and returns the refilled one;
 * - global → local after a call, lazily (before the next charge, branch or end of a construct: a run
 *   of calls costs one store and one load), and at the start of every `catch` and `catch_all` arm.
 *
 * Why this bounds a guest exactly as the counter in the global did:
 * - The host reads and writes the global only between calls and while the guest is inside a call
 *   (`$refuel`, the grow stubs, imports). Every frame on the stack then has stored its count, and
 *   reloads before it charges again. So `unitsUsed()` sees every charge, and what `stop()` (or the
 *   take-back of the oldest holder's rest) writes is what each frame goes on from: a guest that
 *   catches the stop runs to its next check, then `$refuel` — still the only way to more fuel —
 *   stops it. Only the running frame ever holds a count of its own, taken from the global.
 * - Exceptions. A frame unwound by a throw loses what its local held beyond the global. That is
 *   nothing: a WebAssembly exception starts at a `throw`/`rethrow` (stored just before it) or inside a
 *   callee (stored before the call; the callee by the same rule; a host import writes the global
 *   itself), and a `catch` reloads the global, so the catching frame goes on from every charge the
 *   unwound code made. (Had a throw's charges been lost while the catch reloaded, `loop (try (throw)
 *   catch_all)` would never run out: metered-local.test.ts loops by throwing and catching, and checks
 *   that both placements charge the same units.) Traps unwind too, but no `catch` intercepts them and
 *   the instance is discarded; after one, `unitsUsed()` may miss what the trapping frame charged since
 *   its last store (less than a slice).
 * - A function that already has V8's maximum of locals keeps the counter in the global. The appended
 *   local is not charged (LOCALS_PER_UNIT counts the declared ones): one zeroed local per call.
 *
 * Measured with scripts/bench/micro/fuel-local.ts (warm instances, interleaved rounds, medians; three
 * runs of 61 rounds at load average 5–6 on the 2 shared cores), instrumented ÷ plain, global → local:
 * the QuickJS guard 1.76 → 1.34 (11.4 µs plain: 20.4 → 15.4 µs), the SpiderMonkey guard 1.48 → 1.24
 * (33.3 µs: 52.0 → 42.8 µs), the C guard 1.58 → 1.50 (0.76 µs: 1.16 → 1.09 µs, of which
 * `CallMeter.begin()` is 0.10 µs); loops, per iteration: a byte scan with a branch 2.93 → 2.24, eight
 * `if`-guarded calls in a function (a store and a load per segment: the local's worst case) 4.04 →
 * 1.65, recursion 1.10 → 0.87, a function of four calls 0.76 → 0.68, a loop calling a leaf 1.48 → 1.44,
 * an empty loop 1.52 → 1.52 (there the cost is the check's extra taken branch, not the global: V8 11.3
 * lays the `$refuel` call out inline, and no check shape tried did better). No shape measured slower
 * with the local beyond the noise (±5 %), in the default tiering nor in Liftoff or TurboFan alone
 * (`--liftoff --no-wasm-tier-up`, `--no-liftoff`), so every function keeps it: the rule is a local
 * wherever V8 takes one more. (Plain call-heavy loops vary ±30 % with code placement: compare the two
 * instrumented columns. The µs are from the middle run.)
 *
 * The host is reached through a funcref table the rewriter appends ({@link HOST_TABLE_EXPORT}, filled
 * by the host after instantiation), so nothing is imported and no index shifts: code is only inserted
 * or replaced in place, new types, functions, the table and the global go at the end of their index
 * spaces, and custom sections are kept. The start function, if any, is no longer started by the
 * engine but exported as {@link START_EXPORT}: the host runs it once the host table is filled, under
 * the instantiation's deadline. Every memory and table (imported ones too) is exported, so the host
 * sees the whole component's memory.
 *
 * The 12 MB SpiderMonkey guest is rewritten in 0.6–1 s (each body written into one allocation); the
 * result is cached on disk.
 *
 * Refused ({@link MeterError}): `memory.atomic.wait` (it blocks the thread), memory64, and anything
 * Node 20 does not run without flags (GC, typed function references, `try_table`).
 */
import { CHARGE_POINT_UNITS, EH_ENTRY_UNITS, LOCALS_PER_UNIT } from './costs.js';

import { EXTERNREF, FUNCREF, SECTION, readFacts, sections, type Section } from './module-facts.js';
import { MeterError, Reader, sleb, uleb } from './reader.js';
import { HOST_SLOTS, appendedTypes, TYPE, refuelBody, refuelLocalBody, type StubContext } from './stubs.js';

import { emitBody, keepsLocal, scanBody, Stubs, type BodyPlan, type CounterPlacement } from './body.js';
import { FLAGS_EXPORT, FUEL_EXPORT, GLOBAL_EXPORT_PREFIX, HOST_TABLE_EXPORT, MEMORY_EXPORT_PREFIX, START_EXPORT, STATE_FLAG, tableExportName } from './exports.js';

export { MeterError } from './reader.js';
export { HOST_SLOT, HOST_SLOTS, HOST_STOP } from './stubs.js';
export * from './exports.js';

/** What instrumenting one module came to. */
export interface Instrumented {
  readonly bytes: Uint8Array;
  /** Charge points inserted (segment starts; the checked ones are function entries and loop headers). */
  readonly chargePoints: number;
  /** Bulk operations and grows routed through stubs. */
  readonly bulkOps: number;
}

export type { CounterPlacement } from './body.js';

export interface InstrumentOptions {
  readonly counter?: CounterPlacement;
}

/** The order sections must appear in (by id). */
const ORDER: readonly number[] = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];

function concat(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  const out = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** A section: id, size, content. */
function section(id: number, content: readonly Uint8Array[]): Uint8Array[] {
  const size = content.reduce((n, c) => n + c.length, 0);
  const head: Uint8Array[] = [new Uint8Array([id, ...uleb(size)])];
  return head.concat(content);
}

/** A vector section's content with `extra` entries appended (the count re-encoded). */
function appendEntries(bytes: Uint8Array, s: Section | undefined, extra: readonly (readonly number[])[]): Uint8Array[] {
  if (s === undefined) return [new Uint8Array([...uleb(extra.length), ...extra.flat()])];
  const r = new Reader(bytes, s.contentStart);
  const count = r.u32();
  return [new Uint8Array(uleb(count + extra.length)), bytes.subarray(r.offset, s.end), new Uint8Array(extra.flat())];
}

function exportEntry(name: string, kind: number, index: number): number[] {
  const encoded = new TextEncoder().encode(name);
  return [...uleb(encoded.length), ...encoded, kind, ...uleb(index)];
}

/**
 * Meter one core module. Throws {@link MeterError} when it cannot be metered. `bytes` must be a
 * module V8 validates (the caller checks); the result is validated again by the caller's compile.
 */
export function instrumentModule(bytes: Uint8Array, options: InstrumentOptions = {}): Instrumented {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (bytes.length < 8 || header.some((b, i) => bytes[i] !== b)) throw new MeterError('not a core WebAssembly module');
  const all = sections(bytes);
  const facts = readFacts(bytes, all);
  const taken = facts.exportNames.find((n) => n.startsWith('__basis_'));
  if (taken !== undefined) throw new MeterError(`it already exports ${taken}, a name the meter uses`);
  const find = (id: number): Section | undefined => all.find((s) => s.id === id);

  const fuelIndex = facts.importedGlobals + facts.globals;
  const hostTable = facts.tables.length;
  const placement = options.counter ?? 'local';
  // `$refuel_local` exists unless no function can keep its counter in a local (the rewrite of METER_VERSION 5 exactly).
  const withLocal = placement !== 'global';
  const refuel = facts.importedFunctions + facts.functionTypes.length;
  const refuelLocal = refuel + 1;
  const context: StubContext = { fuel: uleb(fuelIndex), hostTable, firstType: facts.typeParams.length, refuel, refuelLocal };
  const stubs = new Stubs(context, refuel + (withLocal ? 2 : 1));

  // The code section: every body scanned, then rewritten once the module is known to throw or not.
  let chargePoints = 0;
  const codeSection = find(SECTION.code);
  const plans: BodyPlan[] = [];
  const eh = { found: facts.tags, drops: false };
  if (codeSection !== undefined) {
    const r = new Reader(bytes, codeSection.contentStart);
    const count = r.u32();
    if (count !== facts.functionTypes.length) throw new MeterError('the code and function sections disagree');
    for (let i = 0; i < count; i++) {
      const size = r.u32();
      const start = r.offset;
      r.skip(size);
      const params = facts.typeParams[facts.functionTypes[i] ?? -1];
      if (params === undefined) throw new MeterError(`function ${i} has a type that does not exist`);
      plans.push(scanBody(bytes, start, r.offset, params, facts, stubs, eh));
    }
    if (r.offset !== codeSection.end) throw new MeterError('the code section has trailing bytes');
  }
  const ehEntry = eh.found ? EH_ENTRY_UNITS : 0;
  const bodies: Uint8Array[] = [];
  for (const plan of plans) {
    const body = emitBody(bytes, plan, context, ehEntry, keepsLocal(plan, placement));
    bodies.push(new Uint8Array(uleb(body.body.length)), body.body);
    chargePoints += body.chargePoints;
  }
  const extraBodies = [refuelBody(context), ...(withLocal ? [refuelLocalBody(context)] : []), ...stubs.list.map((s) => s.body)];
  // (Array#concat, not spread: a large guest has hundreds of thousands of chunks.)
  const head: Uint8Array[] = [new Uint8Array(uleb(plans.length + extraBodies.length))];
  const code = head.concat(bodies, extraBodies);

  const firstType = facts.typeParams.length;
  const exports: number[][] = [exportEntry(FUEL_EXPORT, 0x03, fuelIndex), exportEntry(HOST_TABLE_EXPORT, 0x01, hostTable)];
  for (let m = 0; m < facts.memories; m++) exports.push(exportEntry(`${MEMORY_EXPORT_PREFIX}${m}`, 0x02, m));
  facts.tables.forEach((element, t) => exports.push(exportEntry(tableExportName(t, element), 0x01, t)));
  if (facts.start !== undefined) exports.push(exportEntry(START_EXPORT, 0x00, facts.start));
  let flags = eh.drops ? STATE_FLAG.drops : 0;
  for (const [index, type] of facts.mutableGlobals) {
    if (type === 0x7b) flags |= STATE_FLAG.v128Global;
    else exports.push(exportEntry(`${GLOBAL_EXPORT_PREFIX}${index}`, 0x03, index));
  }
  const flagsIndex = fuelIndex + 1;
  exports.push(exportEntry(FLAGS_EXPORT, 0x03, flagsIndex));

  const replaced = new Map<number, Uint8Array[]>();
  replaced.set(SECTION.code, code);
  replaced.set(SECTION.type, appendEntries(bytes, find(SECTION.type), appendedTypes(withLocal)));
  const refuels = withLocal ? [uleb(firstType + TYPE.void), uleb(firstType + TYPE.l_l)] : [uleb(firstType + TYPE.void)];
  replaced.set(SECTION.function, appendEntries(bytes, find(SECTION.function), [...refuels, ...stubs.list.map((s) => uleb(firstType + s.type))]));
  // The host table: funcref, exactly HOST_SLOTS entries.
  replaced.set(SECTION.table, appendEntries(bytes, find(SECTION.table), [[FUNCREF, 0x01, ...uleb(HOST_SLOTS), ...uleb(HOST_SLOTS)]]));
  // The counter starts empty: the first check of a call asks the host, which set the deadline.
  replaced.set(SECTION.global, appendEntries(bytes, find(SECTION.global), [[0x7e, 0x01, 0x42, 0x00, 0x0b], [0x7f, 0x00, 0x41, ...sleb(BigInt(flags)), 0x0b]]));
  replaced.set(SECTION.export, appendEntries(bytes, find(SECTION.export), exports));
  const removed = new Set<number>([SECTION.start]);

  const out: Uint8Array[] = [bytes.subarray(0, 8)];
  const written = new Set<number>();
  const rank = (id: number): number => ORDER.indexOf(id);
  const writeMissingBefore = (id: number): void => {
    const missingIds = [...replaced.keys()].filter((m) => !written.has(m) && !all.some((s) => s.id === m)).sort((a, b) => rank(a) - rank(b));
    for (const missing of missingIds) {
      const content = replaced.get(missing) ?? [];
      if (id < 0 || rank(missing) < rank(id)) {
        for (const chunk of section(missing, content)) out.push(chunk);
        written.add(missing);
      }
    }
  };
  for (const s of all) {
    if (s.id !== SECTION.custom) writeMissingBefore(s.id);
    if (removed.has(s.id)) continue;
    const content = replaced.get(s.id);
    if (content === undefined || s.id === SECTION.custom) {
      out.push(bytes.subarray(s.start, s.end));
    } else {
      for (const chunk of section(s.id, content)) out.push(chunk);
      written.add(s.id);
    }
  }
  writeMissingBefore(-1);
  return { bytes: concat(out), chargePoints, bulkOps: stubs.list.length };
}

export { EXTERNREF, FUNCREF };
