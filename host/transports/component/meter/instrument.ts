/**
 * Fuel metering of a core WebAssembly module by rewriting its bytes: the module gets a mutable i64
 * counter (exported as {@link FUEL_EXPORT}) and code that charges it for the work it does, executing
 * `unreachable` once it is below zero. The host fills the counter before each call and, after a
 * trap, reads it to tell fuel exhaustion from the guest's own trap.
 *
 * What is charged — one unit per instruction executed, paid in advance per straight run of code:
 * - each function body is cut into **segments** at every point control can reach other than by
 *   falling through (the entry, loop headers, `if`/`else`/`catch` arms, the end of a construct that a
 *   branch targets) and after every conditional branch; a segment subtracts its instruction count
 *   when it is entered, so code pays for what it runs: an interpreter's dispatch (a `br_table` into a
 *   chain of blocks) pays for the one handler it runs, a loop that `continue`s early for the part of
 *   its body it ran;
 * - the counter is **checked** only at function entries and loop headers (each iteration: every
 *   back-edge lands there), which also cost {@link CHARGE_POINT_UNITS}: every unbounded run passes one,
 *   and between two checks the code is straight or branches forward, so the overrun is bounded by one
 *   function body. (A real trap in that stretch, after the budget is spent, reads as exhaustion.)
 * - **bulk operations** (`memory.copy/fill/init`, `table.copy/fill/init/grow`) are charged their byte
 *   or element count (shifted by {@link BULK_UNITS_SHIFT}) and checked before they run — else a single
 *   instruction could copy a whole memory for one unit.
 *
 * Everything else in the module is left byte for byte as it was: code is only inserted, the new
 * global, type and function go at the end of their index spaces (no index shifts), and custom
 * sections are kept. The 12 MB SpiderMonkey guest is rewritten in under a second (+28%: 443,000
 * charge points), where binaryen's read/emit round trip alone took ~5 s and kept its heap; the
 * result is cached on disk.
 *
 * Refused ({@link MeterError}): `memory.atomic.wait` (it blocks the thread), memory64, and anything
 * Node 20 does not run without flags (GC, typed function references, `try_table`). Worker isolation
 * still runs such a module.
 */
import { readInstruction, valtype, type InstructionKind } from './instructions.js';
import { MeterError, Reader, sleb, uleb, withSize } from './reader.js';

export { MeterError } from './reader.js';

/** Bumped whenever the rewrite changes: part of the on-disk cache key of instrumented modules. */
export const METER_VERSION = 3;

/** The export under which every instrumented module exposes its fuel counter (an i64 `WebAssembly.Global`). */
export const FUEL_EXPORT = '__basis_fuel';

/** Units each check (function entry, loop iteration) adds to its segment's count: the check itself, the call or the branch back. */
export const CHARGE_POINT_UNITS = 8;

/** A bulk operation of n bytes (or table elements) costs n >> this. */
export const BULK_UNITS_SHIFT = 1;

/**
 * The counter's value when the module is instantiated: what a core module's start function may
 * spend before the host sets the per-call budget (guests built by wit-component use none; this only
 * bounds a start function that would not return).
 */
export const INSTANTIATION_FUEL = 2_000_000_000n;

/** What instrumenting one module came to. */
export interface Instrumented {
  readonly bytes: Uint8Array;
  /** Charge points inserted (segment starts; the checked ones are function entries and loop headers). */
  readonly chargePoints: number;
  /** Bulk operations charged. */
  readonly bulkOps: number;
}

const SECTION = { custom: 0, type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6, export: 7, start: 8, element: 9, code: 10, data: 11, dataCount: 12, tag: 13 } as const;

/** The order sections must appear in (by id). */
const ORDER: readonly number[] = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];

interface Section {
  readonly id: number;
  /** Offset of the section id byte. */
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

function sections(bytes: Uint8Array): Section[] {
  const r = new Reader(bytes, 8);
  const out: Section[] = [];
  while (r.offset < bytes.length) {
    const start = r.offset;
    const id = r.byte();
    const size = r.u32();
    const contentStart = r.offset;
    r.skip(size);
    out.push({ id, start, contentStart, end: r.offset });
  }
  return out;
}

function limits(r: Reader, what: string): void {
  const flags = r.byte();
  if ((flags & 0x04) !== 0) throw new MeterError(`its ${what} is 64-bit (memory64), which Node 20 does not run`);
  r.u32();
  if ((flags & 0x01) !== 0) r.u32();
}

interface ModuleFacts {
  importedFunctions: number;
  importedGlobals: number;
  types: number;
  functions: number;
  globals: number;
}

function readFacts(bytes: Uint8Array, all: readonly Section[]): ModuleFacts {
  const facts: ModuleFacts = { importedFunctions: 0, importedGlobals: 0, types: 0, functions: 0, globals: 0 };
  for (const s of all) {
    const r = new Reader(bytes, s.contentStart);
    switch (s.id) {
      case SECTION.type:
        facts.types = r.u32();
        break;
      case SECTION.function:
        facts.functions = r.u32();
        break;
      case SECTION.global:
        facts.globals = r.u32();
        break;
      case SECTION.import: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          r.name();
          r.name();
          const kind = r.byte();
          if (kind === 0x00) {
            facts.importedFunctions++;
            r.u32();
          } else if (kind === 0x01) {
            valtype(r);
            limits(r, 'table');
          } else if (kind === 0x02) {
            limits(r, 'memory');
          } else if (kind === 0x03) {
            facts.importedGlobals++;
            valtype(r);
            r.byte();
          } else if (kind === 0x04) {
            r.byte();
            r.u32();
          } else {
            throw new MeterError(`unknown import kind ${kind}`);
          }
        }
        break;
      }
      case SECTION.memory: {
        const n = r.u32();
        for (let i = 0; i < n; i++) limits(r, 'memory');
        break;
      }
      case SECTION.export: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          if (r.name() === FUEL_EXPORT) throw new MeterError(`it already exports ${FUEL_EXPORT}`);
          r.byte();
          r.u32();
        }
        break;
      }
    }
  }
  return facts;
}

/** A straight run of code that starts at a charge point: paid for in full when it is entered. */
interface Segment {
  readonly at: number;
  /** Instructions in the run (up to the next charge point). */
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

/** `fuel -= units; if (fuel < 0) unreachable` */
function checkCode(fuel: readonly number[], units: number): number[] {
  return [0x23, ...fuel, 0x42, ...sleb(BigInt(units)), 0x7d, 0x24, ...fuel, 0x23, ...fuel, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b];
}

/** `fuel -= units` */
function decrementCode(fuel: readonly number[], units: number): number[] {
  return [0x23, ...fuel, 0x42, ...sleb(BigInt(units)), 0x7d, 0x24, ...fuel];
}

interface BodyResult {
  readonly chunks: Uint8Array[];
  readonly size: number;
  readonly chargePoints: number;
  readonly bulkOps: number;
}

/**
 * Rewrite one function body (without its size prefix). The body is cut into segments at every point
 * control can arrive at other than by falling through — the entry, loop headers, `if`/`else`/`catch`
 * arms, and the end of a construct a branch targets (or of an `if`, `try`, `loop`) — and each segment
 * pays for its own instructions when entered. Only entries and loop headers check the counter: every
 * unbounded run passes one, and between two of them the code is straight or forward-branching.
 */
function instrumentBody(bytes: Uint8Array, start: number, end: number, fuel: readonly number[], bulkCall: readonly number[]): BodyResult {
  const r = new Reader(bytes, start);
  const groups = r.u32();
  for (let i = 0; i < groups; i++) {
    r.u32();
    valtype(r);
  }
  let current: Segment = { at: r.offset, count: 0, check: true, dead: false };
  const segments: Segment[] = [current];
  const bulk: number[] = [];
  const frames: Frame[] = [{ kind: 'function', targeted: false }];
  const depths: number[] = [];
  const begin = (check: boolean, dead = false): void => {
    current = { at: r.offset, count: 0, check, dead };
    segments.push(current);
  };
  const target = (): void => {
    for (const depth of depths) {
      const frame = frames[frames.length - 1 - depth];
      if (frame === undefined) throw new MeterError('a branch to a label that does not exist');
      frame.targeted = true;
    }
  };
  while (frames.length > 0) {
    if (r.offset >= end) throw new MeterError('a function body ends inside an instruction');
    const at = r.offset;
    const kind: InstructionKind = readInstruction(r, depths);
    current.count++;
    switch (kind) {
      case 'block':
      case 'try':
        frames.push({ kind, targeted: false });
        break;
      case 'loop':
        frames.push({ kind, targeted: false });
        begin(true);
        break;
      case 'if':
        frames.push({ kind, targeted: false });
        begin(false);
        break;
      case 'arm':
        begin(false);
        break;
      case 'branch':
        // The fall-through is its own segment: a loop that `continue`s (or skips ahead) early in a
        // long body must not pay for the rest of it on every iteration.
        target();
        begin(false);
        break;
      case 'jump':
        target();
        begin(false, true);
        break;
      case 'end': {
        const frame = frames.pop();
        // After a grouping block nothing branches to, control only falls through: same segment.
        if (frames.length > 0 && (frame?.kind !== 'block' || frame.targeted)) begin(false);
        break;
      }
      case 'bulk':
        bulk.push(at);
        break;
      case 'plain':
        break;
    }
  }
  if (r.offset !== end) throw new MeterError('a function body has bytes after its end');

  const inserts: Array<{ readonly at: number; readonly code: number[] }> = [];
  for (const segment of segments) {
    if (segment.check) inserts.push({ at: segment.at, code: checkCode(fuel, segment.count + CHARGE_POINT_UNITS) });
    else if (segment.count > 0 && !segment.dead) inserts.push({ at: segment.at, code: decrementCode(fuel, segment.count) });
  }
  for (const at of bulk) inserts.push({ at, code: [...bulkCall] });
  // A stable sort: where a segment starts with a bulk instruction (its operands are block
  // parameters), the segment's charge goes first, the bulk call right before the instruction.
  inserts.sort((a, b) => a.at - b.at);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let from = start;
  for (const insert of inserts) {
    chunks.push(bytes.subarray(from, insert.at));
    size += insert.at - from;
    const code = new Uint8Array(insert.code);
    chunks.push(code);
    size += code.length;
    from = insert.at;
  }
  chunks.push(bytes.subarray(from, end));
  size += end - from;
  return { chunks, size, chargePoints: inserts.length - bulk.length, bulkOps: bulk.length };
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
function appendEntries(bytes: Uint8Array, s: Section | undefined, extra: readonly number[][]): Uint8Array[] {
  if (s === undefined) return [new Uint8Array([...uleb(extra.length), ...extra.flat()])];
  const r = new Reader(bytes, s.contentStart);
  const count = r.u32();
  return [new Uint8Array(uleb(count + extra.length)), bytes.subarray(r.offset, s.end), new Uint8Array(extra.flat())];
}

/**
 * Meter one core module. Throws {@link MeterError} when it cannot be metered. `bytes` must be a
 * module V8 validates (the caller checks); the result is validated again by the caller's compile.
 */
export function instrumentModule(bytes: Uint8Array): Instrumented {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (bytes.length < 8 || header.some((b, i) => bytes[i] !== b)) throw new MeterError('not a core WebAssembly module');
  const all = sections(bytes);
  const facts = readFacts(bytes, all);
  const fuelIndex = facts.importedGlobals + facts.globals;
  const fuel = uleb(fuelIndex);
  const bulkFunction = facts.importedFunctions + facts.functions;
  const bulkCall = [0x10, ...uleb(bulkFunction)];
  const find = (id: number): Section | undefined => all.find((s) => s.id === id);

  // The code section, rewritten function by function.
  let chargePoints = 0;
  let bulkOps = 0;
  let code: Uint8Array[] | undefined;
  const codeSection = find(SECTION.code);
  if (codeSection !== undefined) {
    const r = new Reader(bytes, codeSection.contentStart);
    const count = r.u32();
    const bodies: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const size = r.u32();
      const start = r.offset;
      r.skip(size);
      const body = instrumentBody(bytes, start, r.offset, fuel, bulkCall);
      bodies.push(new Uint8Array(uleb(body.size)));
      for (const chunk of body.chunks) bodies.push(chunk);
      chargePoints += body.chargePoints;
      bulkOps += body.bulkOps;
    }
    if (r.offset !== codeSection.end) throw new MeterError('the code section has trailing bytes');
    const extra: Uint8Array[] = [];
    if (bulkOps > 0) {
      // (func (param $n i32) (result i32): fuel -= n >> shift; trap below zero; n)
      const body = [
        0x00,
        0x23, ...fuel, 0x20, 0x00, 0xad, 0x42, ...sleb(BigInt(BULK_UNITS_SHIFT)), 0x88, 0x7d, 0x24, ...fuel,
        0x23, ...fuel, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b,
        0x20, 0x00, 0x0b,
      ];
      extra.push(new Uint8Array(withSize(body)));
    }
    // (Array#concat, not spread: a large guest has hundreds of thousands of chunks.)
    const head: Uint8Array[] = [new Uint8Array(uleb(count + extra.length))];
    code = head.concat(bodies, extra);
  }

  const replaced = new Map<number, Uint8Array[]>();
  if (code !== undefined) replaced.set(SECTION.code, code);
  if (bulkOps > 0) {
    replaced.set(SECTION.type, appendEntries(bytes, find(SECTION.type), [[0x60, 0x01, 0x7f, 0x01, 0x7f]]));
    replaced.set(SECTION.function, appendEntries(bytes, find(SECTION.function), [uleb(facts.types)]));
  }
  replaced.set(SECTION.global, appendEntries(bytes, find(SECTION.global), [[0x7e, 0x01, 0x42, ...sleb(INSTANTIATION_FUEL), 0x0b]]));
  const name = new TextEncoder().encode(FUEL_EXPORT);
  replaced.set(SECTION.export, appendEntries(bytes, find(SECTION.export), [[...uleb(name.length), ...name, 0x03, ...fuel]]));

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
    const content = replaced.get(s.id);
    if (content === undefined || s.id === SECTION.custom) {
      out.push(bytes.subarray(s.start, s.end));
    } else {
      for (const chunk of section(s.id, content)) out.push(chunk);
      written.add(s.id);
    }
  }
  writeMissingBefore(-1);
  return { bytes: concat(out), chargePoints, bulkOps };
}
