/**
 * What the fuel counter costs where it lives: every instrumented form of a few loops and of the guard
 * guests against the uninstrumented code, on warm instances, interleaved round by round (one round
 * runs every form once, in turn), medians over the rounds. Each instrumented form has its own
 * CallMeter and runs as the transport runs it: `begin()` before each call, slices granted through
 * `$refuel`.
 *
 *   npx tsx scripts/bench/micro/fuel-local.ts [--rounds 41] [--placements global,local]
 *     [--guests c,js-quickjs,js-spidermonkey] [--no-loops] [--no-guests]
 *
 * Loops: ns per iteration of `run(n)`, n = 1,000,000. Guests: µs per call of `handle` through the
 * direct canonical-ABI call (jco's glue would add the same few µs to every form), the bench's request.
 * Ratios are instrumented / plain, each a median of the per-round ratios (the pairs share a round's load).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { toWitRequest } from '../../../host/codec/wit.js';
import { capMemory } from '../../../host/engine/compile/binary.js';
import { readCacheEntry } from '../../../host/engine/cache/cache.js';
import { CoreInstances, bindDirectCall } from '../../../host/engine/instance/core-instances.js';
import { ImportGate } from '../../../host/engine/instance/gate.js';
import { planDirectCall } from '../../../host/engine/instance/plan.js';
import { hookBinding } from '../../../host/transports/component/binding.js';
import { checkWorld } from '../../../host/transports/component/world.js';
import { directCaller, type DirectCaller } from '../raw.js';
import { glueSource } from '../../../host/engine/cache/cache.js';
import { asGlue } from '../../../host/engine/instance/glue.js';
import { Engine } from '../../../host/engine/engine.js';
import { CallMeter } from '../../../host/engine/meter/call-meter.js';
import { instrumentModule, type CounterPlacement } from '../../../host/engine/meter/instrument.js';
import { COMPONENT_DEFAULTS } from '../../../host/transports/component/options.js';
import { createWasi, type Wasi } from '../../../host/engine/wasi/index.js';
import { transpilerVersion } from '../../../host/engine/compile/transpile.js';
import { Wasm, type WasmInstance, type WasmModule } from '../../../host/engine/wasm-api.js';
import { parseWat } from '../../hostile/build.js';
import { REQUEST, ROOT, guestById } from '../guests.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '41' },
    placements: { type: 'string', default: 'global,local' },
    guests: { type: 'string', default: 'c,js-quickjs,js-spidermonkey' },
    'no-loops': { type: 'boolean', default: false },
    'no-guests': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const PLACEMENTS = values.placements.split(',').filter((p) => p !== '') as CounterPlacement[];
const CAP_BYTES = COMPONENT_DEFAULTS.memory_mb * 1048576;
const FAR = 60_000;

/** One form of a case: how to run one sample of it, and the unit of what the sample returns. */
interface Form {
  readonly name: string;
  /** Runs one sample; returns its time per unit of work (ns per iteration, µs per call). */
  readonly sample: () => number;
}

interface Row {
  readonly label: string;
  readonly unit: string;
  readonly medians: Map<string, number>;
  readonly ratios: Map<string, number>;
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Every form once per round, in turn (the order rotating), after a few warm-up rounds. */
function interleave(label: string, unit: string, forms: readonly Form[], rounds: number): Row {
  const samples = new Map<string, number[]>(forms.map((f) => [f.name, []]));
  const warmup = 10;
  for (let round = 0; round < warmup + rounds; round++) {
    for (let k = 0; k < forms.length; k++) {
      const form = forms[(round + k) % forms.length] as Form;
      const value = form.sample();
      if (round >= warmup) samples.get(form.name)?.push(value);
    }
  }
  const plain = samples.get('plain') ?? [];
  const medians = new Map<string, number>();
  const ratios = new Map<string, number>();
  for (const [name, xs] of samples) {
    medians.set(name, median(xs));
    if (name !== 'plain') ratios.set(name, median(xs.map((x, i) => x / (plain[i] ?? NaN))));
  }
  return { label, unit, medians, ratios };
}

// ---------------------------------------------------------------------------------------------------
// Loops

const N = 1_000_000;

/** `run(n)` in each shape: the loop's body, and the functions it calls. */
const LOOPS: Record<string, string> = {
  'empty loop': `
    (func (export "run") (param $n i32) (local $i i32)
      (loop $l (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n)))))`,
  'loop calling a leaf': `
    (func $f (param i32) (result i32) (i32.add (local.get 0) (i32.const 3)))
    (func (export "run") (param $n i32) (local $i i32) (local $s i32)
      (loop $l
        (local.set $s (call $f (local.get $s)))
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))
      (global.set $sink (local.get $s)))`,
  'byte scan with a branch': `
    (func (export "run") (param $n i32) (local $i i32) (local $c i32)
      (loop $l
        (if (i32.eq (i32.load8_u (i32.and (local.get $i) (i32.const 65535))) (i32.const 44))
          (then (local.set $c (i32.add (local.get $c) (i32.const 1)))))
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))
      (global.set $sink (local.get $c)))`,
  'calls only (a function of 4 calls)': `
    (func $f (param i32) (result i32) (i32.add (local.get 0) (i32.const 3)))
    (func $g (param i32) (result i32) (call $f (call $f (call $f (call $f (local.get 0))))))
    (func (export "run") (param $n i32) (local $i i32) (local $s i32)
      (loop $l
        (local.set $s (call $g (local.get $s)))
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))
      (global.set $sink (local.get $s)))`,
  // The worst case for a local: every segment both charged and ended by a call (a store and a load each).
  'branchy calls (8 × if-call in a function)': `
    (func $f (param i32) (result i32) (i32.add (local.get 0) (i32.const 3)))
    (func $g (param $x i32) (result i32)
      ${Array.from({ length: 8 }, (_, b) => `(if (i32.and (local.get $x) (i32.const ${1 << b})) (then (local.set $x (call $f (local.get $x)))))`).join('\n      ')}
      (local.get $x))
    (func (export "run") (param $n i32) (local $i i32) (local $s i32)
      (loop $l
        (local.set $s (call $g (i32.xor (local.get $i) (local.get $s))))
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))
      (global.set $sink (local.get $s)))`,
  'recursion (fib 20 per 1,000 iterations)': `
    (func $fib (param $n i32) (result i32)
      (if (result i32) (i32.lt_u (local.get $n) (i32.const 2)) (then (local.get $n))
        (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1))) (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
    (func (export "run") (param $n i32) (local $i i32)
      (loop $l
        (global.set $sink (call $fib (i32.const 20)))
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1000))) (local.get $n)))))`,
};

function loopForm(name: string, instance: WasmInstance, meter: CallMeter | undefined): Form {
  const run = instance.exports.run as (n: number) => void;
  return {
    name,
    sample: () => {
      meter?.begin(performance.now() + FAR);
      const t = performance.now();
      run(N);
      return ((performance.now() - t) * 1e6) / N;
    },
  };
}

async function loopRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, body] of Object.entries(LOOPS)) {
    const bytes = await parseWat(`(module (memory 1) (global $sink (mut i32) (i32.const 0)) ${body})`);
    const forms: Form[] = [loopForm('plain', Wasm.instantiateSync(await Wasm.compile(bytes)), undefined)];
    for (const placement of PLACEMENTS) {
      const instance = Wasm.instantiateSync(await Wasm.compile(instrumentModule(bytes, { counter: placement }).bytes));
      const meter = new CallMeter(CAP_BYTES, undefined);
      meter.begin(performance.now() + FAR);
      meter.attach(instance, label);
      forms.push(loopForm(placement, instance, meter));
    }
    rows.push(interleave(label, 'ns/iteration', forms, ROUNDS));
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// Guests

/** Calls per sample: enough that one sample is well above the timer's resolution. */
const BATCH: Record<string, number> = { c: 100, 'js-quickjs': 20, 'js-spidermonkey': 10 };

interface Instantiated {
  readonly direct: DirectCaller;
  readonly sandbox: Wasi;
}

/** One instance of the component made of `modules` (metered by `meter` when given), callable directly. */
async function instantiate(glueUrl: string, handler: string, sandboxConfig: Parameters<typeof createWasi>[0], modules: Record<string, WasmModule>, meter: CallMeter | undefined): Promise<Instantiated> {
  const names = new Map<WasmModule, string>(Object.entries(modules).map(([n, m]) => [m, n]));
  const sandbox = createWasi(sandboxConfig, { typeOnly: ['basis:hook/types@1.0.0'] });
  const instances = new CoreInstances(new ImportGate());
  const glue = asGlue(await import(glueUrl));
  meter?.begin(performance.now() + FAR);
  await glue.instantiate(
    (name) => {
      const module = modules[name];
      if (module === undefined) throw new Error(`no core module ${name}`);
      return module;
    },
    sandbox.imports,
    instances.wrap(async (module, imports) => {
      const instance = await Wasm.instantiate(module, imports);
      if (meter !== undefined) meter.attach(instance, names.get(module) ?? '?')?.();
      return instance;
    }),
  );
  const plan = planDirectCall(glueSource(glueUrl), handler, 'handle', hookBinding({ handler, maxOutputBytes: 1 }).plan, modules);
  if (!plan.ok) throw new Error(`not direct-callable: ${plan.reason}`);
  const bound = bindDirectCall(plan.plan, instances, modules);
  if (!bound.ok) throw new Error(`not direct-callable: ${bound.reason}`);
  return { direct: directCaller(bound.session, handler), sandbox };
}

async function guestRow(id: string, cacheDir: string): Promise<Row> {
  const guest = guestById(id);
  const component = await new Engine({ cacheDir }).load(guest.path, {
    memoryMb: COMPONENT_DEFAULTS.memory_mb,
    maxLogBytes: COMPONENT_DEFAULTS.max_log_bytes,
    check: (world) => {
      const verdict = checkWorld(world);
      return verdict.ok ? undefined : verdict.message;
    },
    instrumented: false,
  });
  const verdict = checkWorld(component.world);
  if (!verdict.ok) throw new Error(verdict.message);
  const entry = await readCacheEntry(cacheDir, component.sha256, transpilerVersion());
  if (entry === undefined) throw new Error(`${guest.label}: no cache entry`);
  const names = Object.keys(component.modules);
  const raw = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await entry.readModule(n)] as const)));
  const capPages = COMPONENT_DEFAULTS.memory_mb * 16;
  const record = toWitRequest(REQUEST);
  const batch = BATCH[id] ?? 10;
  const open: Wasi[] = [];
  const form = (name: string, made: Instantiated, meter: CallMeter | undefined): Form => {
    open.push(made.sandbox);
    const direct = made.direct;
    const check = direct.call(record);
    if (check.type !== 'ok') throw new Error(`${guest.label} (${name}) answered ${check.type}`);
    return {
      name,
      sample: () => {
        const t = performance.now();
        for (let i = 0; i < batch; i++) {
          meter?.begin(performance.now() + FAR);
          direct.call(record);
        }
        return ((performance.now() - t) * 1000) / batch;
      },
    };
  };
  try {
    const forms: Form[] = [form('plain', await instantiate(component.glueUrl, verdict.handler, component.wasi, { ...component.modules }, undefined), undefined)];
    for (const placement of PLACEMENTS) {
      const modules: Record<string, WasmModule> = {};
      for (const n of names) modules[n] = await Wasm.compile(capMemory(instrumentModule(raw[n] as Uint8Array, { counter: placement }).bytes, capPages).bytes);
      const meter = new CallMeter(CAP_BYTES, undefined);
      forms.push(form(placement, await instantiate(component.glueUrl, verdict.handler, component.wasi, modules, meter), meter));
    }
    // Warm every form up past V8's tier-up before the rounds.
    for (const f of forms) for (let i = 0; i < 2000 / batch; i++) f.sample();
    return interleave(guest.label, 'µs/call', forms, ROUNDS);
  } finally {
    for (const s of open) s.dispose();
  }
}

// ---------------------------------------------------------------------------------------------------

function print(rows: readonly Row[]): void {
  const header = ['case', 'unit', 'plain', ...PLACEMENTS.map((p) => `${p} (×plain)`)];
  process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
  for (const row of rows) {
    const cells = [row.label, row.unit, fmt(row.medians.get('plain'))];
    for (const p of PLACEMENTS) cells.push(`${fmt(row.medians.get(p))} (${(row.ratios.get(p) ?? NaN).toFixed(2)})`);
    process.stdout.write(`| ${cells.join(' | ')} |\n`);
  }
}

function fmt(x: number | undefined): string {
  if (x === undefined) return '-';
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** What `CallMeter.begin()` costs the host per call (one core instance holding fuel), in µs: part of every metered call above. */
async function beginCost(): Promise<number> {
  const instance = Wasm.instantiateSync(await Wasm.compile(instrumentModule(await parseWat('(module (func (export "run")))')).bytes));
  const meter = new CallMeter(CAP_BYTES, undefined);
  meter.begin(performance.now() + FAR);
  meter.attach(instance, 'begin');
  (instance.exports.run as () => void)(); // asks for a slice: the meter now grants this core one up front
  const samples: number[] = [];
  for (let round = 0; round < 10 + ROUNDS; round++) {
    const t = performance.now();
    for (let i = 0; i < 10_000; i++) meter.begin(performance.now() + FAR);
    if (round >= 10) samples.push(((performance.now() - t) * 1000) / 10_000);
  }
  return median(samples);
}

const rows: Row[] = [];
if (values['no-loops'] !== true) rows.push(...(await loopRows()));
if (values['no-guests'] !== true) {
  for (const id of values.guests.split(',').filter((g) => g !== '')) {
    process.stderr.write(`[fuel-local] ${id}\n`);
    rows.push(await guestRow(id, join(ROOT, '.cache', 'bench')));
  }
}
print(rows);
process.stdout.write(`\nCallMeter.begin() alone (once per metered call, included above): ${fmt(await beginCost())} µs\n`);
process.exit(0);
