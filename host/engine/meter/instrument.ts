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
import { decoded, readInstruction, valtype } from './instructions.js';
import { EXTERNREF, FUNCREF, SECTION, readFacts, sections, type ModuleFacts, type Section } from './module-facts.js';
import { MeterError, Reader, sleb, uleb } from './reader.js';
import {
  HOST_SLOTS,
  appendedTypes,
  TYPE,
  checkCode,
  decrementCode,
  loadCode,
  localCheckCode,
  localDecrementCode,
  memoryCopyStub,
  memoryFillStub,
  memoryGrowStub,
  memoryInitStub,
  refuelBody,
  refuelLocalBody,
  storeCode,
  tableCopyStub,
  tableFillStub,
  tableGrowStub,
  tableInitStub,
  type Stub,
  type StubContext,
} from './stubs.js';

export { MeterError } from './reader.js';
export { HOST_SLOT, HOST_SLOTS, HOST_STOP } from './stubs.js';

/** Bumped whenever the rewrite changes: part of the on-disk cache key of instrumented modules. */
export const METER_VERSION = 6;

/** The export under which every instrumented module exposes its fuel counter (an i64 `WebAssembly.Global`). */
export const FUEL_EXPORT = '__basis_fuel';
/** The funcref table through which the module calls the host (see stubs.ts `HOST_SLOT`). */
export const HOST_TABLE_EXPORT = '__basis_host';
/** The module's start function, exported instead of started. */
export const START_EXPORT = '__basis_start';
/** Every memory of the module, by index: `__basis_memory_0`... */
export const MEMORY_EXPORT_PREFIX = '__basis_memory_';
/** Every table of the module, by index, with its element type: `__basis_table_f0` (funcref), `__basis_table_e1` (externref). */
export const TABLE_EXPORT_PREFIX = '__basis_table_';

/** Every mutable global the module defines, by index: `__basis_global_3`... (restored by a state reset). */
export const GLOBAL_EXPORT_PREFIX = '__basis_global_';
/**
 * An immutable i32 global of {@link STATE_FLAG} bits: what a state reset cannot restore through the
 * JavaScript API, so it re-instantiates instead.
 */
export const FLAGS_EXPORT = '__basis_flags';
export const STATE_FLAG = {
  /** The code drops data or element segments (`data.drop`, `elem.drop`). */
  drops: 1,
  /** A mutable `v128` global, which JavaScript cannot read or write. */
  v128Global: 2,
} as const;

/** Export name of table `index`. */
export function tableExportName(index: number, element: number): string {
  return `${TABLE_EXPORT_PREFIX}${element === FUNCREF ? 'f' : 'e'}${index}`;
}

export { CHARGE_POINT_UNITS } from './costs.js';

/** What instrumenting one module came to. */
export interface Instrumented {
  readonly bytes: Uint8Array;
  /** Charge points inserted (segment starts; the checked ones are function entries and loop headers). */
  readonly chargePoints: number;
  /** Bulk operations and grows routed through stubs. */
  readonly bulkOps: number;
}

/**
 * Where the instrumented code keeps the fuel counter while a function runs: in a local of the function
 * (`local`, the default: what the host runs), or always in the global (`global`: the rewrite of
 * METER_VERSION 5, byte for byte; kept for measurements, scripts/bench/micro/fuel-local.ts).
 */
export type CounterPlacement = 'global' | 'local';

export interface InstrumentOptions {
  readonly counter?: CounterPlacement;
}

/** The order sections must appear in (by id). */
const ORDER: readonly number[] = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];

/** V8 refuses a function with more locals (parameters included) than this. */
const MAX_FUNCTION_LOCALS = 50_000;

/** A straight run of code that starts at a charge point: paid for in full when it is entered. */
interface Segment {
  readonly at: number;
  /** Units of the instructions in the run (up to the next charge point). */
  count: number;
  /** Also check the counter here (loop headers and function entries) — else only decrement it. */
  readonly check: boolean;
  /** Follows an unconditional jump: never runs, costs nothing. */
  readonly dead: boolean;
}

interface Frame {
  readonly kind: 'function' | 'block' | 'loop' | 'if' | 'try';
  /** A branch targets this construct's label (so its end is a join). */
  targeted: boolean;
}

/** An instruction replaced by a call to a stub. */
interface Replacement {
  readonly at: number;
  readonly end: number;
  readonly stub: number;
}

/**
 * Where a function that keeps its counter in a local copies it: `store` (local → global) before the
 * instruction at `at`, `load` (global → local) before it.
 */
interface Copy {
  readonly at: number;
  readonly kind: 'store' | 'load';
}

/**
 * Which of the two copies of the counter is current at a point of a function that keeps it in a
 * local, while the scan walks its straight-line code: `dirty` — the local (charged since the global
 * was last written); `clean` — both; `stale` — the global (other code ran since: a callee, the host).
 * A copy is inserted only where the current one is the wrong one: the global must be current before
 * anything that leaves the function or reaches other code, the local before every charge and every
 * edge to another segment (a branch, the end of a construct, an `if`, a loop header). So a run of
 * calls costs one store and one load, not one of each per call.
 */
class CounterCopies {
  #state: 'dirty' | 'clean' | 'stale' = 'dirty';
  readonly copies: Copy[] = [];

  /** The global must be current before `at` (an exit, a call). */
  publish(at: number): void {
    if (this.#state !== 'dirty') return;
    this.copies.push({ at, kind: 'store' });
    this.#state = 'clean';
  }

  /** The local must be current before `at` (control goes on to another segment from there). */
  refresh(at: number): void {
    if (this.#state !== 'stale') return;
    this.copies.push({ at, kind: 'load' });
    this.#state = 'clean';
  }

  /** Other code runs at `at` (a call, a stub): it may change the global, which it must see current. */
  call(at: number): void {
    this.publish(at);
    this.#state = 'stale';
  }

  /** A segment starts (and is charged, on the local): every edge into it brought a current local. */
  segment(): void {
    this.#state = 'dirty';
  }

  /** A `catch` arm starts at `at`: the exception came from a callee or a `throw`, past the local. */
  caught(at: number): void {
    this.copies.push({ at, kind: 'load' });
  }
}

/** One function body, scanned: where its segments start and what is replaced. */
interface BodyPlan {
  readonly start: number;
  readonly end: number;
  /** Number of local declaration groups, and where they start (after their count) and end. */
  readonly groups: number;
  readonly groupsStart: number;
  readonly localsEnd: number;
  /** Parameters and declared locals: the index of a local appended for the counter. */
  readonly locals: number;
  /** Units of the function's entry beyond its first segment: its locals and parameters. */
  readonly entryExtra: number;
  readonly segments: Segment[];
  readonly replacements: Replacement[];
  /** Where the counter is copied between a local and the global, if the function keeps it in a local. */
  readonly copies: Copy[];
}

/** The stubs a module needs, each made once per form and numbered as they are first asked for. */
class Stubs {
  readonly #byKey = new Map<string, number>();
  readonly list: Stub[] = [];
  constructor(
    readonly context: StubContext,
    /** Index of the first stub (after `$refuel`, and `$refuel_local` if any). */
    readonly first: number,
  ) {}
  index(key: string, make: () => Stub): number {
    let index = this.#byKey.get(key);
    if (index === undefined) {
      index = this.first + this.list.length;
      this.list.push(make());
      this.#byKey.set(key, index);
    }
    return index;
  }
}

function tableElement(facts: ModuleFacts, table: number): number {
  const element = facts.tables[table];
  if (element === undefined) throw new MeterError(`an instruction uses table ${table}, which does not exist`);
  return element;
}

const OP = { unreachable: 0x00, throw: 0x08, rethrow: 0x09, catch: 0x07, catchAll: 0x19, return: 0x0f, call: 0x10, callIndirect: 0x11, returnCall: 0x12, returnCallIndirect: 0x13 } as const;

/** Instructions after which the function's frame is gone (or trapped): its counter must be in the global. */
const EXITS: ReadonlySet<number> = new Set([OP.unreachable, OP.return, OP.returnCall, OP.returnCallIndirect, OP.throw, OP.rethrow]);

/**
 * Scan one function body (without its size prefix): cut it into segments at every point control can
 * arrive at other than by falling through — the entry, loop headers, `if`/`else`/`catch` arms, and the
 * end of a construct a branch targets (or of an `if`, `try`, `loop`) — note the instructions that
 * become stub calls, and where a counter kept in a local is copied. Sets `eh.found` when the body
 * contains `try` or `throw`.
 */
function scanBody(bytes: Uint8Array, start: number, end: number, params: number, facts: ModuleFacts, stubs: Stubs, eh: { found: boolean; drops: boolean }): BodyPlan {
  const r = new Reader(bytes, start);
  const groups = r.u32();
  const groupsStart = r.offset;
  let locals = params;
  for (let i = 0; i < groups; i++) {
    locals += r.u32();
    valtype(r);
  }
  const localsEnd = r.offset;
  let current: Segment = { at: r.offset, count: 0, check: true, dead: false };
  const segments: Segment[] = [current];
  const replacements: Replacement[] = [];
  const frames: Frame[] = [{ kind: 'function', targeted: false }];
  const counter = new CounterCopies();
  const d = decoded();
  const c = stubs.context;
  const begin = (check: boolean, dead = false): void => {
    current = { at: r.offset, count: 0, check, dead };
    segments.push(current);
    counter.segment();
  };
  /** Mark the labels a branch targets; true when one of them is the function's (the branch returns). */
  const target = (): boolean => {
    let exits = false;
    for (const depth of d.depths) {
      const frame = frames[frames.length - 1 - depth];
      if (frame === undefined) throw new MeterError('a branch to a label that does not exist');
      frame.targeted = true;
      if (depth === frames.length - 1) exits = true;
    }
    return exits;
  };
  const replace = (at: number, stub: number): void => {
    replacements.push({ at, end: r.offset, stub });
    counter.call(at);
  };
  while (frames.length > 0) {
    if (r.offset >= end) throw new MeterError('a function body ends inside an instruction');
    const at = r.offset;
    const op = bytes[at];
    const kind = readInstruction(r, d);
    current.count += d.units;
    if (d.throws) eh.found = true;
    if (d.drops) eh.drops = true;
    switch (kind) {
      case 'block':
        frames.push({ kind, targeted: false });
        break;
      case 'try':
        eh.found = true;
        frames.push({ kind, targeted: false });
        break;
      case 'loop':
        counter.refresh(at);
        frames.push({ kind, targeted: false });
        begin(true);
        break;
      case 'if':
        counter.refresh(at);
        frames.push({ kind, targeted: false });
        begin(false);
        break;
      case 'arm':
        counter.refresh(at);
        begin(false);
        if (op === OP.catch || op === OP.catchAll) counter.caught(r.offset);
        break;
      case 'branch':
        // The fall-through is its own segment: a loop that `continue`s (or skips ahead) early in a
        // long body must not pay for the rest of it on every iteration.
        if (target()) counter.publish(at);
        counter.refresh(at);
        begin(false);
        break;
      case 'jump':
        if (target() || (op !== undefined && EXITS.has(op))) counter.publish(at);
        counter.refresh(at);
        begin(false, true);
        break;
      case 'end': {
        const frame = frames.pop();
        if (frames.length === 0) {
          counter.publish(at);
        } else if (frame?.kind !== 'block' || frame.targeted) {
          // After a grouping block nothing branches to, control only falls through: same segment.
          counter.refresh(at);
          begin(false);
        }
        break;
      }
      case 'memory-grow': {
        const memory = d.imm0;
        replace(at, stubs.index(`mg${memory}`, () => memoryGrowStub(c, memory)));
        break;
      }
      case 'table-grow': {
        const table = d.imm0;
        const element = tableElement(facts, table);
        replace(at, stubs.index(`tg${table}`, () => tableGrowStub(c, table, element)));
        break;
      }
      case 'memory-fill': {
        const memory = d.imm0;
        replace(at, stubs.index(`mf${memory}`, () => memoryFillStub(c, memory)));
        break;
      }
      case 'memory-copy': {
        const [dst, src] = [d.imm0, d.imm1];
        replace(at, stubs.index(`mc${dst},${src}`, () => memoryCopyStub(c, dst, src)));
        break;
      }
      case 'memory-init': {
        const [segment, memory] = [d.imm0, d.imm1];
        replace(at, stubs.index(`mi${segment},${memory}`, () => memoryInitStub(c, segment, memory)));
        break;
      }
      case 'table-fill': {
        const table = d.imm0;
        const element = tableElement(facts, table);
        replace(at, stubs.index(`tf${table}`, () => tableFillStub(c, table, element)));
        break;
      }
      case 'table-copy': {
        const [dst, src] = [d.imm0, d.imm1];
        tableElement(facts, dst);
        replace(at, stubs.index(`tc${dst},${src}`, () => tableCopyStub(c, dst, src)));
        break;
      }
      case 'table-init': {
        const [segment, table] = [d.imm0, d.imm1];
        tableElement(facts, table);
        replace(at, stubs.index(`ti${segment},${table}`, () => tableInitStub(c, segment, table)));
        break;
      }
      case 'plain':
        if (op === OP.call || op === OP.callIndirect) counter.call(at);
        break;
    }
  }
  if (r.offset !== end) throw new MeterError('a function body has bytes after its end');
  return { start, end, groups, groupsStart, localsEnd, locals, entryExtra: Math.ceil(locals / LOCALS_PER_UNIT), segments, replacements, copies: counter.copies };
}

/** Whether a function keeps its counter in a local, under `placement`: wherever V8 takes one more local (see the header). */
function keepsLocal(plan: BodyPlan, placement: CounterPlacement): boolean {
  return placement === 'local' && plan.locals + 1 <= MAX_FUNCTION_LOCALS;
}

interface BodyCode {
  /** The rewritten body, without its size prefix. */
  readonly body: Uint8Array;
  readonly chargePoints: number;
}

/** An edit of a body: the bytes [at, end) replaced by `code`; edits at one offset apply in `rank` order. */
interface Edit {
  readonly at: number;
  readonly end: number;
  readonly rank: number;
  readonly code: readonly number[];
}

/** At one offset: the local's declaration, reloads, then the segment's charge, stores, and a replaced instruction last. */
const RANK = { declaration: 0, load: 1, charge: 2, store: 3, replacement: 4 } as const;

/** The charges of a function that keeps its counter in the global. */
function globalCharges(plan: BodyPlan, c: StubContext, ehEntry: number, edits: Edit[]): void {
  let first = true;
  for (const segment of plan.segments) {
    if (segment.check) {
      const extra = first ? plan.entryExtra + ehEntry : 0;
      edits.push({ at: segment.at, end: segment.at, rank: RANK.charge, code: checkCode(c, segment.count + CHARGE_POINT_UNITS + extra) });
    } else if (segment.count > 0 && !segment.dead) {
      edits.push({ at: segment.at, end: segment.at, rank: RANK.charge, code: decrementCode(c, segment.count) });
    }
    first = false;
  }
}

/** The charges of a function that keeps its counter in a local it declares (appended: its index is `plan.locals`), and its copies. */
function localCharges(plan: BodyPlan, c: StubContext, ehEntry: number, edits: Edit[]): void {
  const l = plan.locals;
  edits.push({ at: plan.start, end: plan.groupsStart, rank: RANK.declaration, code: uleb(plan.groups + 1) });
  edits.push({ at: plan.localsEnd, end: plan.localsEnd, rank: RANK.declaration, code: [0x01, 0x7e] });
  let first = true;
  for (const segment of plan.segments) {
    if (segment.check) {
      const extra = first ? plan.entryExtra + ehEntry : 0;
      edits.push({ at: segment.at, end: segment.at, rank: RANK.charge, code: localCheckCode(c, l, segment.count + CHARGE_POINT_UNITS + extra, first) });
    } else if (segment.count > 0 && !segment.dead) {
      edits.push({ at: segment.at, end: segment.at, rank: RANK.charge, code: localDecrementCode(l, segment.count) });
    }
    first = false;
  }
  // Every copy of one function is the same code: shared, not made per copy (the 12 MB guest has ~10^6).
  const load = loadCode(c, l);
  const store = storeCode(c, l);
  for (const copy of plan.copies) {
    const isLoad = copy.kind === 'load';
    edits.push({ at: copy.at, end: copy.at, rank: isLoad ? RANK.load : RANK.store, code: isLoad ? load : store });
  }
}

/** The rewritten body of a scanned function: its charges inserted, its replaced instructions swapped for stub calls. */
function emitBody(bytes: Uint8Array, plan: BodyPlan, c: StubContext, ehEntry: number, local: boolean): BodyCode {
  const edits: Edit[] = [];
  if (local) localCharges(plan, c, ehEntry, edits);
  else globalCharges(plan, c, ehEntry, edits);
  const chargePoints = edits.filter((e) => e.rank === RANK.charge).length;
  for (const replacement of plan.replacements) edits.push({ at: replacement.at, end: replacement.end, rank: RANK.replacement, code: [0x10, ...uleb(replacement.stub)] });
  // Where a segment starts with a replaced instruction (its operands are block parameters), the
  // segment's charge goes first, the stub call in place of the instruction.
  edits.sort((a, b) => a.at - b.at || a.rank - b.rank);
  // One allocation per body: its size first, then the original bytes and the inserted code.
  let size = plan.end - plan.start;
  for (const edit of edits) size += edit.code.length - (edit.end - edit.at);
  const body = new Uint8Array(size);
  let offset = 0;
  let from = plan.start;
  for (const edit of edits) {
    body.set(bytes.subarray(from, edit.at), offset);
    offset += edit.at - from;
    const code = edit.code;
    for (let i = 0; i < code.length; i++) body[offset + i] = code[i] ?? 0;
    offset += code.length;
    from = edit.end;
  }
  body.set(bytes.subarray(from, plan.end), offset);
  return { body, chargePoints };
}

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
