/**
 * Decoding of WebAssembly instructions for the meter: what each one is, for the purposes of fuel
 * (structure, bulk operation, refused) and how long its immediates are. Covers what Node 20's V8 runs
 * without flags — MVP, sign extension, saturating truncation, multi-value, bulk memory, reference
 * types, SIMD (and relaxed SIMD), threads/atomics, tail calls, legacy exception handling — plus
 * extended constant expressions. Anything else is refused by name: unknown code is never guessed at.
 */
import { MeterError, type Reader } from './reader.js';
import { CALL_INDIRECT_UNITS, LOAD_UNITS, SMALL_RUNTIME_UNITS, TABLE_SET_UNITS, THROW_UNITS } from './costs.js';

/** What the meter needs to know about one instruction. */
export type InstructionKind =
  /** `memory.grow` (memory index in `imm0`): replaced by a call to the host, which checks the cap. */
  | 'memory-grow'
  /** `table.grow` (table in `imm0`): replaced likewise. */
  | 'table-grow'
  /**
   * Bulk operations, replaced by a call to a stub that runs them in charged chunks:
   * `memory.fill` (memory in `imm0`), `memory.copy` (destination, source), `memory.init` (segment, memory),
   * `table.fill` (table), `table.copy` (destination, source), `table.init` (segment, table).
   */
  | 'memory-fill'
  | 'memory-copy'
  | 'memory-init'
  | 'table-fill'
  | 'table-copy'
  | 'table-init'

  | 'block'
  | 'if'
  | 'try'
  /** Opens a construct that runs again from its start on every back-edge. */
  | 'loop'
  /** `else`, `catch`, `catch_all`: starts another arm of the innermost construct. */
  | 'arm'
  /** `end`, `delegate`: closes the innermost construct (or the function). */
  | 'end'
  /** `br_if`: the label depth it may jump to is in the `depths` argument. */
  | 'branch'
  /** `br`, `br_table` (label depths in `depths`), and `return`, `unreachable`, `throw`, `rethrow`, tail calls: what follows is unreachable. */
  | 'jump'
  | 'plain';

/** One decoded instruction: its kind, its charge, and the immediates the rewriter needs. */
export interface Decoded {
  kind: InstructionKind;
  /** Units it costs (1 for a plain instruction; see costs.ts). */
  units: number;
  /** First and second index immediate of a grow or bulk operation (see {@link InstructionKind}). */
  imm0: number;
  imm1: number;
  /** Label depths a branch may jump to (empty otherwise). */
  readonly depths: number[];
  /** The instruction can throw a WebAssembly exception (`throw`, `rethrow`). */
  throws: boolean;
  /** `data.drop` or `elem.drop`: state no host API can restore. */
  drops: boolean;
}

/** A fresh {@link Decoded} to pass to {@link readInstruction} (reused for every instruction). */
export function decoded(): Decoded {
  return { kind: 'plain', units: 1, imm0: 0, imm1: 0, depths: [], throws: false, drops: false };
}

/** Value types Node 20 supports as single bytes: i32 i64 f32 f64 v128 funcref externref. */
const VALTYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);

function refuse(what: string): never {
  throw new MeterError(`it uses ${what}, which the meter cannot bound`);
}

/** Any LEB128 (up to 64 bits), skipped. */
function leb(r: Reader): void {
  r.skipSigned(64);
}

export function valtype(r: Reader): number {
  const b = r.byte();
  if (!VALTYPES.has(b)) refuse(`value type 0x${b.toString(16)} (typed references or GC)`);
  return b;
}

function blocktype(r: Reader): void {
  const b = r.bytes[r.offset];
  if (b === 0x40 || (b !== undefined && VALTYPES.has(b))) {
    r.offset++;
    return;
  }
  if (b !== undefined && (b & 0xc0) === 0x40) refuse(`block type 0x${b.toString(16)} (typed references or GC)`);
  r.skipSigned(33); // a type index
}

function memarg(r: Reader): void {
  const align = r.u32();
  if ((align & 0x40) !== 0) r.u32(); // a memory index (multi-memory)
  leb(r); // offset
}

const REFUSED_SINGLE: ReadonlyMap<number, string> = new Map([
  [0x0a, 'throw_ref'],
  [0x14, 'call_ref'],
  [0x15, 'return_call_ref'],
  [0x1f, 'try_table'],
  [0xd3, 'ref.eq'],
  [0xd4, 'ref.as_non_null'],
  [0xd5, 'br_on_null'],
  [0xd6, 'br_on_non_null'],
  [0xfb, 'a GC instruction'],
]);

/** 0xFC: saturating truncation, bulk memory and table operations. */
function misc(r: Reader, d: Decoded): InstructionKind {
  const op = r.u32();
  if (op <= 7) return 'plain'; // trunc_sat
  switch (op) {
    case 8: // memory.init data mem
      d.imm0 = r.u32();
      d.imm1 = r.u32();
      return 'memory-init';
    case 9: // data.drop
    case 13: // elem.drop
      r.u32();
      d.units = SMALL_RUNTIME_UNITS;
      d.drops = true;
      return 'plain';
    case 16: // table.size
      r.u32();
      d.units = SMALL_RUNTIME_UNITS;
      return 'plain';
    case 10: // memory.copy dst src
      d.imm0 = r.u32();
      d.imm1 = r.u32();
      return 'memory-copy';
    case 11: // memory.fill mem
      d.imm0 = r.u32();
      return 'memory-fill';
    case 12: // table.init elem table
      d.imm0 = r.u32();
      d.imm1 = r.u32();
      return 'table-init';
    case 14: // table.copy dst src
      d.imm0 = r.u32();
      d.imm1 = r.u32();
      return 'table-copy';
    case 15: // table.grow table
      d.imm0 = r.u32();
      return 'table-grow';
    case 17: // table.fill table
      d.imm0 = r.u32();
      return 'table-fill';
    default:
      return refuse(`instruction 0xfc ${op} (memory64 or a newer proposal)`);
  }
}

/** 0xFD: SIMD (and relaxed SIMD, whose opcodes take no immediates). Loads cost {@link LOAD_UNITS}. */
function simd(r: Reader, d: Decoded): InstructionKind {
  const op = r.u32();
  if (op <= 0x0b || op === 0x5c || op === 0x5d) {
    memarg(r);
    if (op <= 0x0a || op === 0x5c || op === 0x5d) d.units = LOAD_UNITS; // v128.load*, load*_zero (0x0b is the store)
  } else if (op === 0x0c || op === 0x0d) r.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 0x15 && op <= 0x22) r.skip(1); // extract/replace lane
  else if (op >= 0x54 && op <= 0x5b) {
    memarg(r); // load/store lane
    r.skip(1);
    if (op <= 0x57) d.units = LOAD_UNITS;
  } else if (op > 0x113) refuse(`SIMD instruction 0xfd ${op}`);
  return 'plain';
}

/** 0xFE: threads. `wait` is refused: it can block the thread for as long as it asks. */
function atomic(r: Reader, d: Decoded): InstructionKind {
  const op = r.u32();
  if (op === 0x01 || op === 0x02) refuse('memory.atomic.wait (it blocks the thread)');
  if (op === 0x03) {
    r.skip(1); // atomic.fence
    return 'plain';
  }
  if (op === 0x00) {
    memarg(r); // memory.atomic.notify: a runtime call
    d.units = SMALL_RUNTIME_UNITS;
    return 'plain';
  }
  if (op >= 0x10 && op <= 0x4e) {
    memarg(r);
    // Loads (0x10–0x16) and read-modify-writes (0x1e–0x4e) read memory; stores (0x17–0x1d) do not wait for it.
    if (op <= 0x16 || op >= 0x1e) d.units = LOAD_UNITS;
    return 'plain';
  }
  return refuse(`atomic instruction 0xfe ${op}`);
}

/**
 * Read one instruction (opcode and immediates) at the reader's offset into `d`: its kind, its units,
 * the immediates a grow or bulk operation needs and, for a branch, the label depths it may jump to.
 */
export function readInstruction(r: Reader, d: Decoded): InstructionKind {
  d.depths.length = 0;
  d.units = 1;
  d.throws = false;
  d.drops = false;
  d.kind = decode(r, d);
  return d.kind;
}

function decode(r: Reader, d: Decoded): InstructionKind {
  const depths = d.depths;
  const op = r.byte();
  if (op >= 0x45 && op <= 0xc4) return 'plain'; // numeric, no immediates
  if (op >= 0x28 && op <= 0x3e) {
    memarg(r);
    if (op <= 0x35) d.units = LOAD_UNITS;
    return 'plain';
  }
  if (op >= 0x20 && op <= 0x24) {
    r.u32(); // local.*, global.*
    return 'plain';
  }
  switch (op) {
    case 0x25: // table.get
      r.u32();
      d.units = SMALL_RUNTIME_UNITS;
      return 'plain';
    case 0x26: // table.set
      r.u32();
      d.units = TABLE_SET_UNITS;
      return 'plain';
    case 0x00: // unreachable
    case 0x0f: // return
      return 'jump';
    case 0x01: // nop
    case 0x1a: // drop
    case 0x1b: // select
    case 0xd1: // ref.is_null
      return 'plain';
    case 0x02:
      blocktype(r);
      return 'block';
    case 0x03:
      blocktype(r);
      return 'loop';
    case 0x04:
      blocktype(r);
      return 'if';
    case 0x06:
      blocktype(r);
      return 'try';
    case 0x05: // else
    case 0x19: // catch_all
      return 'arm';
    case 0x07: // catch tag
      r.u32();
      return 'arm';
    case 0x0b:
      return 'end';
    case 0x18: // delegate depth
      r.u32();
      return 'end';
    case 0x0c: // br
      depths.push(r.u32());
      return 'jump';
    case 0x0d: // br_if
      depths.push(r.u32());
      return 'branch';
    case 0x08: // throw tag
    case 0x09: // rethrow depth
      r.u32();
      d.units = THROW_UNITS;
      d.throws = true;
      return 'jump';
    case 0x12: // return_call
      r.u32();
      return 'jump';
    case 0x10: // call
    case 0xd2: // ref.func
    case 0x3f: // memory.size mem
      r.u32();
      return 'plain';
    case 0x40: // memory.grow mem
      d.imm0 = r.u32();
      return 'memory-grow';
    case 0x11: // call_indirect type table
      r.u32();
      r.u32();
      d.units = CALL_INDIRECT_UNITS;
      return 'plain';
    case 0x13: // return_call_indirect
      r.u32();
      r.u32();
      d.units = CALL_INDIRECT_UNITS;
      return 'jump';
    case 0x0e: {
      // br_table: labels and a default
      const n = r.u32();
      for (let i = 0; i <= n; i++) depths.push(r.u32());
      return 'jump';
    }
    case 0x1c: {
      // select with types
      const n = r.u32();
      for (let i = 0; i < n; i++) valtype(r);
      return 'plain';
    }
    case 0x41:
      r.skipSigned(32);
      return 'plain';
    case 0x42:
      r.skipSigned(64);
      return 'plain';
    case 0x43:
      r.skip(4);
      return 'plain';
    case 0x44:
      r.skip(8);
      return 'plain';
    case 0xd0: // ref.null heaptype
      r.skipSigned(33);
      return 'plain';
    case 0xfc:
      return misc(r, d);
    case 0xfd:
      return simd(r, d);
    case 0xfe:
      return atomic(r, d);
    default:
      return refuse(REFUSED_SINGLE.get(op) ?? `opcode 0x${op.toString(16)}`);
  }
}
