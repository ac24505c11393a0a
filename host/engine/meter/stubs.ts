import { BULK_BASE_UNITS, BULK_BYTES_SHIFT, BULK_CHUNK_BYTES, BULK_CHUNK_ELEMENTS, TABLE_ELEMENT_UNITS } from './costs.js';
import { EXTERNREF, FUNCREF } from './module-facts.js';
import { sleb, uleb, withSize } from './reader.js';

/*
 * The functions the rewriter appends to a module, as bytes: `$refuel` (asks the host for the next
 * slice), one stub per `memory.grow`/`table.grow` target (asks the host, which checks the component's
 * memory cap and the deadline) and one per bulk operation form (runs it in charged chunks). The host
 * is reached through a table the rewriter adds ({@link HOST_SLOT}), so no function index shifts.
 */

/** Entries of the host table, filled by the host after instantiation. */
export const HOST_SLOT = { refuel: 0, memoryGrow: 1, tableGrowFuncref: 2, tableGrowExternref: 3 } as const;
export const HOST_SLOTS = 4;

/** What a stub's host call returns when the host stops the guest: the stub then traps (uncatchable). */
export const HOST_STOP = -2;

const I32 = 0x7f;
const I64 = 0x7e;

/** The types the rewriter appends, in order (their indices are `firstType + TYPE.x`). */
export const TYPE = { void: 0, host: 1, hostFuncref: 2, hostExternref: 3, i_i: 4, iii: 5, fi_i: 6, ei_i: 7, ifi: 8, iei: 9, l_l: 10 } as const;

/** The appended types; `l_l` (for `$refuel_local`) only when some function keeps its counter in a local. */
export function appendedTypes(withLocal: boolean): number[][] {
  const fn = (params: number[], results: number[]): number[] => [0x60, ...uleb(params.length), ...params, ...uleb(results.length), ...results];
  const types = [
    fn([], []),
    fn([I32, I32], [I32]),
    fn([I32, FUNCREF, I32], [I32]),
    fn([I32, EXTERNREF, I32], [I32]),
    fn([I32], [I32]),
    fn([I32, I32, I32], []),
    fn([FUNCREF, I32], [I32]),
    fn([EXTERNREF, I32], [I32]),
    fn([I32, FUNCREF, I32], []),
    fn([I32, EXTERNREF, I32], []),
  ];
  if (withLocal) types.push(fn([I64], [I64]));
  return types;
}

/** Indices the generated code refers to. */
export interface StubContext {
  /** LEB bytes of the fuel counter's global index. */
  readonly fuel: readonly number[];
  /** The host table's index. */
  readonly hostTable: number;
  /** Index of the first appended type. */
  readonly firstType: number;
  /** Index of `$refuel`. */
  readonly refuel: number;
  /** Index of `$refuel_local` (right after `$refuel`, when some function keeps its counter in a local). */
  readonly refuelLocal: number;
}

const op = {
  unreachable: 0x00,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  brIf: 0x0d,
  return: 0x0f,
  call: 0x10,
  callIndirect: 0x11,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eq: 0x46,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i64LtS: 0x53,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Mul: 0x7e,
  i64ShrU: 0x88,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  void: 0x40,
} as const;

const get = (i: number): number[] => [op.localGet, ...uleb(i)];
const set = (i: number): number[] => [op.localSet, ...uleb(i)];
const tee = (i: number): number[] => [op.localTee, ...uleb(i)];
const i32 = (v: number): number[] => [op.i32Const, ...sleb(BigInt(v))];
const i64 = (v: number | bigint): number[] => [op.i64Const, ...sleb(BigInt(v))];
const trapIf = (condition: number[]): number[] => [...condition, op.if, op.void, op.unreachable, op.end];

/** `fuel -= <units: i64 on the stack>; if (fuel < 0) $refuel()` */
export function chargeCode(c: StubContext, units: readonly number[]): number[] {
  return [
    op.globalGet, ...c.fuel, ...units, op.i64Sub, op.globalSet, ...c.fuel,
    op.globalGet, ...c.fuel, ...i64(0), op.i64LtS, op.if, op.void, op.call, ...uleb(c.refuel), op.end,
  ];
}

/** `fuel -= units` (inline, unchecked: between two checks). */
export function decrementCode(c: StubContext, units: number): number[] {
  return [op.globalGet, ...c.fuel, ...i64(units), op.i64Sub, op.globalSet, ...c.fuel];
}

/** `fuel -= units; if (fuel < 0) $refuel()` (inline, at function entries and loop headers). */
export function checkCode(c: StubContext, units: number): number[] {
  return chargeCode(c, i64(units));
}

/*
 * The same charges for a function that keeps the counter in a local `l` while it runs (see
 * instrument.ts for where it is written back and reloaded).
 */

/** `l -= units; if (l < 0) l = $refuel_local(l)` — at function entries (`l` loaded from the global first) and loop headers. */
export function localCheckCode(c: StubContext, l: number, units: number, entry: boolean): number[] {
  return [
    ...(entry ? [op.globalGet, ...c.fuel] : get(l)), ...i64(units), op.i64Sub, ...tee(l),
    ...i64(0), op.i64LtS, op.if, op.void, ...get(l), op.call, ...uleb(c.refuelLocal), ...set(l), op.end,
  ];
}

/** `l -= units` (between two checks). */
export function localDecrementCode(l: number, units: number): number[] {
  return [...get(l), ...i64(units), op.i64Sub, ...set(l)];
}

/** `fuel = l`: before the function leaves or reaches other code. */
export function storeCode(c: StubContext, l: number): number[] {
  return [...get(l), op.globalSet, ...c.fuel];
}

/** `l = fuel`: once other code may have changed the global (after a call, in a `catch`). */
export function loadCode(c: StubContext, l: number): number[] {
  return [op.globalGet, ...c.fuel, ...set(l)];
}

/** `$refuel_local(l: i64) -> i64`: `$refuel` for a counter kept in a local (written back, refilled, read again). */
export function refuelLocalBody(c: StubContext): Uint8Array {
  return body([], [...get(0), op.globalSet, ...c.fuel, op.call, ...uleb(c.refuel), op.globalGet, ...c.fuel]);
}

/** A function body: local declarations (`[count, type]` pairs) and code, with its size prefix. */
function body(locals: ReadonlyArray<readonly [number, number]>, code: readonly number[]): Uint8Array {
  const decls = [...uleb(locals.length), ...locals.flatMap(([n, t]) => [...uleb(n), t])];
  return new Uint8Array(withSize([...decls, ...code, op.end]));
}

const MAX_GRANT_REQUEST = 0x7fffffff;

/**
 * `$refuel` (no parameters, locals $g i32 $d i64): called when the counter is below zero. Asks the host
 * for a slice, passing the deficit; the host answers with the units granted (deficit included), or 0
 * to stop the guest — then it traps: `unreachable` is no exception, so no `catch_all` can go on.
 */
export function refuelBody(c: StubContext): Uint8Array {
  const g = 0;
  const d = 1;
  return body(
    [
      [1, I32],
      [1, I64],
    ],
    [
      op.loop, op.void,
      ...i64(0), op.globalGet, ...c.fuel, op.i64Sub, ...set(d),
      // min(deficit, 2^31 - 1) as an i32
      ...get(d), ...i64(MAX_GRANT_REQUEST), ...get(d), ...i64(MAX_GRANT_REQUEST), op.i64LtS, op.select, op.i32WrapI64,
      ...i32(0),
      ...i32(HOST_SLOT.refuel),
      op.callIndirect, ...uleb(c.firstType + TYPE.host), ...uleb(c.hostTable),
      ...tee(g),
      ...trapIf([0x45]), // i32.eqz
      op.globalGet, ...c.fuel, ...get(g), op.i64ExtendI32U, op.i64Add, op.globalSet, ...c.fuel,
      op.globalGet, ...c.fuel, ...i64(0), op.i64LtS, op.brIf, 0,
      op.end,
    ],
  );
}

/** A stub: its type (relative to the first appended type) and body. */
export interface Stub {
  readonly type: number;
  readonly body: Uint8Array;
}

/** `memory.grow m` → the host grows memory `m` of this instance if the component's cap allows. */
export function memoryGrowStub(c: StubContext, memory: number): Stub {
  const r = 1;
  return {
    type: TYPE.i_i,
    body: body(
      [[1, I32]],
      [
        ...i32(memory), ...get(0), ...i32(HOST_SLOT.memoryGrow),
        op.callIndirect, ...uleb(c.firstType + TYPE.host), ...uleb(c.hostTable),
        ...tee(r), ...trapIf([...i32(HOST_STOP), op.i32Eq]), ...get(r),
      ],
    ),
  };
}

/** `table.grow t` (its init value and delta) → the host grows table `t` if the cap allows. */
export function tableGrowStub(c: StubContext, table: number, element: number): Stub {
  const funcref = element === FUNCREF;
  const r = 2;
  return {
    type: funcref ? TYPE.fi_i : TYPE.ei_i,
    body: body(
      [[1, I32]],
      [
        ...i32(table), ...get(0), ...get(1), ...i32(funcref ? HOST_SLOT.tableGrowFuncref : HOST_SLOT.tableGrowExternref),
        op.callIndirect, ...uleb(c.firstType + (funcref ? TYPE.hostFuncref : TYPE.hostExternref)), ...uleb(c.hostTable),
        ...tee(r), ...trapIf([...i32(HOST_STOP), op.i32Eq]), ...get(r),
      ],
    ),
  };
}

/** Trap when `a + n` wraps around 2^32 (the operation would trap on its bounds anyway). */
function overflowCheck(a: number, n: number): number[] {
  return trapIf([...get(a), ...get(n), op.i32Add, ...get(a), op.i32LtU]);
}

/** `c = min(n, chunk)` */
function chunkOf(n: number, c: number, chunk: number): number[] {
  return [...get(n), ...i32(chunk), ...get(n), ...i32(chunk), op.i32LtU, op.select, ...set(c)];
}

/** Units of a chunk of `c` bytes or elements. */
function chunkUnits(c: number, elements: boolean): number[] {
  return elements
    ? [...get(c), op.i64ExtendI32U, ...i64(TABLE_ELEMENT_UNITS), op.i64Mul, ...i64(BULK_BASE_UNITS), op.i64Add]
    : [...get(c), op.i64ExtendI32U, ...i64(BULK_BYTES_SHIFT), op.i64ShrU, ...i64(BULK_BASE_UNITS), op.i64Add];
}

/**
 * A bulk operation over (d, x, n) run in chunks, each charged before it runs. `x` is the fill value or
 * the source offset (`advanceX`: it moves with d). When `descendingIfAfter`, and d > x, the chunks run
 * from the end (a copy within one memory or table where the destination is after the source).
 * Locals: 0 d, 1 x, 2 n, 3 c. Running it in pieces is only observable if a later piece traps on its
 * bounds after earlier ones were written — and a trapped instance is never used again.
 */
function chunkedBody(c: StubContext, instruction: readonly number[], advanceX: boolean, descendingIfAfter: boolean, elements: boolean): Uint8Array {
  const [d, x, n, cl] = [0, 1, 2, 3];
  const chunk = elements ? BULK_CHUNK_ELEMENTS : BULK_CHUNK_BYTES;
  const ascending = [
    op.loop, op.void,
    ...chunkOf(n, cl, chunk),
    ...chargeCode(c, chunkUnits(cl, elements)),
    ...get(d), ...get(x), ...get(cl), ...instruction,
    ...get(d), ...get(cl), op.i32Add, ...set(d),
    ...(advanceX ? [...get(x), ...get(cl), op.i32Add, ...set(x)] : []),
    ...get(n), ...get(cl), op.i32Sub, ...tee(n), op.brIf, 0,
    op.end,
  ];
  const descending = [
    op.loop, op.void,
    ...chunkOf(n, cl, chunk),
    ...chargeCode(c, chunkUnits(cl, elements)),
    ...get(n), ...get(cl), op.i32Sub, ...set(n),
    ...get(d), ...get(n), op.i32Add, ...get(x), ...get(n), op.i32Add, ...get(cl), ...instruction,
    ...get(n), op.brIf, 0,
    op.end,
  ];
  const code = [
    ...overflowCheck(d, n),
    ...(advanceX ? overflowCheck(x, n) : []),
    ...(descendingIfAfter ? [...get(d), ...get(x), op.i32GtU, op.if, op.void, ...descending, op.return, op.end] : []),
    ...ascending,
  ];
  return body([[1, I32]], code);
}

/** `memory.fill m` */
export function memoryFillStub(c: StubContext, memory: number): Stub {
  return { type: TYPE.iii, body: chunkedBody(c, [0xfc, ...uleb(11), ...uleb(memory)], false, false, false) };
}

/** `memory.copy dst src` */
export function memoryCopyStub(c: StubContext, dst: number, src: number): Stub {
  return { type: TYPE.iii, body: chunkedBody(c, [0xfc, ...uleb(10), ...uleb(dst), ...uleb(src)], true, dst === src, false) };
}

/** `memory.init segment m` */
export function memoryInitStub(c: StubContext, segment: number, memory: number): Stub {
  return { type: TYPE.iii, body: chunkedBody(c, [0xfc, ...uleb(8), ...uleb(segment), ...uleb(memory)], true, false, false) };
}

/** `table.fill t` */
export function tableFillStub(c: StubContext, table: number, element: number): Stub {
  return { type: element === FUNCREF ? TYPE.ifi : TYPE.iei, body: chunkedBody(c, [0xfc, ...uleb(17), ...uleb(table)], false, false, true) };
}

/** `table.copy dst src` */
export function tableCopyStub(c: StubContext, dst: number, src: number): Stub {
  return { type: TYPE.iii, body: chunkedBody(c, [0xfc, ...uleb(14), ...uleb(dst), ...uleb(src)], true, dst === src, true) };
}

/** `table.init segment t` */
export function tableInitStub(c: StubContext, segment: number, table: number): Stub {
  return { type: TYPE.iii, body: chunkedBody(c, [0xfc, ...uleb(12), ...uleb(segment), ...uleb(table)], true, false, true) };
}
