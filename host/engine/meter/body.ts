/**
 * One function body through the meter's rewrite (instrument.ts says what and why): scanned into
 * segments between charge points, then emitted with the charges (global or local counter), the
 * stubs that replace bulk operations and grows, and the counter copies around calls.
 */
import { CHARGE_POINT_UNITS, LOCALS_PER_UNIT } from './costs.js';
import { decoded, readInstruction, valtype } from './instructions.js';
import type { ModuleFacts } from './module-facts.js';
import { MeterError, Reader, uleb } from './reader.js';
import { HOST_SLOTS, checkCode, decrementCode, loadCode, localCheckCode, localDecrementCode, memoryCopyStub, memoryFillStub, memoryGrowStub, memoryInitStub, storeCode, tableCopyStub, tableFillStub, tableGrowStub, tableInitStub, type Stub, type StubContext } from './stubs.js';

/**
 * Where the instrumented code keeps the fuel counter while a function runs: in a local of the function
 * (`local`, the default: what the host runs), or always in the global (`global`: the rewrite of
 * METER_VERSION 5, byte for byte; kept for measurements, scripts/bench/micro/fuel-local.ts).
 */
export type CounterPlacement = 'global' | 'local';

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
export interface BodyPlan {
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
export class Stubs {
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

export function tableElement(facts: ModuleFacts, table: number): number {
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
export function scanBody(bytes: Uint8Array, start: number, end: number, params: number, facts: ModuleFacts, stubs: Stubs, eh: { found: boolean; drops: boolean }): BodyPlan {
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
export function keepsLocal(plan: BodyPlan, placement: CounterPlacement): boolean {
  return placement === 'local' && plan.locals + 1 <= MAX_FUNCTION_LOCALS;
}

export interface BodyCode {
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
export function emitBody(bytes: Uint8Array, plan: BodyPlan, c: StubContext, ehEntry: number, local: boolean): BodyCode {
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

