/**
 * The direct canonical-ABI call of `handle` against jco's glue, on every example guest (WAT, C, Rust
 * std and no_std, AssemblyScript, JS and TS on QuickJS and SpiderMonkey) and every conformance guest:
 * the planner finds each one direct-callable, and the direct call answers exactly what the glue
 * answers on a corpus of requests — the policy cases, non-ASCII text in every field, empty strings,
 * lone surrogates, large inputs that make the guest grow its memory, every decision variant and
 * `err`. Then what only the direct call checks: guests written to break the ABI (bad pointers,
 * invalid UTF-8, bad discriminants, a bad allocator) come back as a typed `abi` outcome, never a host
 * crash; a host import during post-return is refused; a shape the planner does not know is refused.
 */
import { join } from 'node:path';
import { glueSource } from '../../host/engine/cache/cache.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toWitRequest, type WitHookRequest } from '../../host/codec/wit.js';
import { toRequest } from '../../host/codec/request.js';
import { parseToolInput } from '../../host/codec/input.js';
import { DirectPlanSchema, planDirectCall } from '../../host/engine/instance/plan.js';
import { hookBinding } from '../../host/transports/component/binding.js';
import { Wasm, type WasmMemory } from '../../host/engine/wasm-api.js';
import { ensureGuestsBuilt, guestBuildDir, TEST_CACHE_DIR, watGuest } from '../helpers/guests.js';
import { loadPolicyCases } from '../helpers/policy-cases.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { directCaller, instantiateBothWays, type BothWays, type DirectOutcome } from '../../scripts/bench/raw.js';
import { ABI_VIOLATIONS, buildAbiViolationGuests } from './fixtures/abi-violations.js';

const LANGS = ['wat', 'c', 'rust', 'assemblyscript', 'js', 'ts'] as const;

/** The example policies per guest language: [label, path]. */
const POLICY_GUESTS: Array<[string, string]> = [
  ['WAT', join(guestBuildDir('wat'), '%s.wasm')],
  ['C', join(guestBuildDir('c'), '%s.wasm')],
  ['Rust std', join(guestBuildDir('rust'), 'std', '%s.wasm')],
  ['Rust no_std', join(guestBuildDir('rust'), 'nostd', '%s.wasm')],
  ['AssemblyScript', join(guestBuildDir('assemblyscript'), '%s.wasm')],
  ['JS (QuickJS)', join(guestBuildDir('js'), 'quickjs', '%s.wasm')],
  ['JS (SpiderMonkey)', join(guestBuildDir('js'), 'spidermonkey', '%s.wasm')],
  ['TS (QuickJS)', join(guestBuildDir('ts'), 'quickjs', '%s.wasm')],
  ['TS (SpiderMonkey)', join(guestBuildDir('ts'), 'spidermonkey', '%s.wasm')],
];

const CONFORMANCE_DIRS: Array<[string, string]> = [
  ['WAT', join(guestBuildDir('wat'), 'conformance')],
  ['C', join(guestBuildDir('c'), 'conformance')],
  ['Rust std', join(guestBuildDir('rust'), 'std', 'conformance')],
  ['Rust no_std', join(guestBuildDir('rust'), 'nostd', 'conformance')],
  ['AssemblyScript', join(guestBuildDir('assemblyscript'), 'conformance')],
];

/** Every conformance behaviour a guest can run on this thread (`hang` never returns). */
const BEHAVIOURS = ['allow', 'deny', 'modify-wrap', 'replace-wrap', 'replace-error', 'replace-ok', 'deny-if-wrapped', 'probe', 'empty-deny-reason', 'malformed', 'crash', 'oversized'];
const COMPILED_ONLY = ['guest-error'];

const pre = (input: string, extra: Partial<WitHookRequest> = {}): WitHookRequest => ({
  hookSchema: 1,
  event: 'pre-tool-use',
  workspace: '/repo',
  agentId: 'agent-1',
  toolCallId: 'call-1',
  toolName: 'shell',
  input,
  ...extra,
});
const post = (input: string, output: string, isError: boolean, extra: Partial<WitHookRequest> = {}): WitHookRequest => ({
  ...pre(input, extra),
  event: 'post-tool-use',
  output,
  isError,
});

const big = (n: number, tail: string): string => JSON.stringify({ command: `${'echo x; '.repeat(Math.ceil(n / 8)).slice(0, n)} ${tail}` });

/** The request corpus: the policy cases, then text and sizes that exercise the lowering. */
function corpus(): WitHookRequest[] {
  const out: WitHookRequest[] = [];
  for (const c of loadPolicyCases()) {
    const input = parseToolInput(c.call.input);
    const state = c.call.event === 'pre_tool_use' ? { event: 'pre_tool_use' as const, input } : { event: 'post_tool_use' as const, input, output: c.call.output, is_error: c.call.is_error };
    out.push(toWitRequest(toRequest(c.call, state)));
  }
  out.push(
    pre(JSON.stringify({ command: 'git push --force origin feature-é-日本-\u{1F600}' }), { workspace: '/tmp/répertoire', agentId: '\u{1F916}', toolCallId: 'c-ü', toolName: 'shell-ß' }),
    pre('"git push -f origin master"', { workspace: '', agentId: '', toolCallId: '', toolName: '' }),
    pre(JSON.stringify({ command: 'ls' }), { workspace: 'lone \uD800 surrogate', agentId: 'trail \uDFFF' }),
    pre(big(200_000, 'git push --force origin feature')),
    pre(big(1_100_000, 'git push --force origin main')),
    post(JSON.stringify({ wrapped: 1 }), JSON.stringify('out é ghp_a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2'), true),
    post('{}', JSON.stringify({ wrapped: 'AKIAIOSFODNN7EXAMPLE' }), false),
    post('null', big(300_000, 'AKIAIOSFODNN7EXAMPLE Bearer abcdefghijklmnopqrstuvwxyz.123'), false),
    post('"x"', '', false),
  );
  return out;
}

type Normal = { kind: 'ok'; decision: unknown } | { kind: 'err'; message: string } | { kind: 'threw' } | { kind: 'needs-glue' } | { kind: 'abi'; violation: string };

function viaGlue(both: BothWays, request: WitHookRequest): Normal {
  try {
    return { kind: 'ok', decision: JSON.parse(JSON.stringify(both.glue(request))) as unknown };
  } catch (error) {
    if (error instanceof Error && Object.prototype.hasOwnProperty.call(error, 'payload')) return { kind: 'err', message: String((error as unknown as { payload: unknown }).payload) };
    return { kind: 'threw' };
  }
}

function viaDirect(both: BothWays, request: WitHookRequest): Normal {
  const caller = both.direct;
  if (caller === undefined) throw new Error(`not direct-callable: ${both.whyNot}`);
  let outcome: DirectOutcome;
  try {
    outcome = caller.call(request);
  } catch {
    return { kind: 'threw' };
  }
  switch (outcome.type) {
    case 'ok':
      return { kind: 'ok', decision: outcome.decision };
    case 'err':
      return { kind: 'err', message: outcome.message };
    case 'needs-glue':
      return { kind: 'needs-glue' };
    case 'abi':
      return { kind: 'abi', violation: outcome.violation };
    case 'too-large':
      throw new Error('no cap was given');
  }
}

/** Two fresh instances per guest (one per way), remade after anything that poisons one. */
class Pair {
  #glue: BothWays | undefined;
  #direct: BothWays | undefined;
  constructor(
    readonly path: string,
    readonly env?: Readonly<Record<string, string>>,
  ) {}
  async both(): Promise<[BothWays, BothWays]> {
    const options = this.env === undefined ? {} : { env: this.env };
    this.#glue ??= await instantiateBothWays(this.path, TEST_CACHE_DIR, options);
    this.#direct ??= await instantiateBothWays(this.path, TEST_CACHE_DIR, options);
    return [this.#glue, this.#direct];
  }
  async compare(request: WitHookRequest): Promise<{ glue: Normal; direct: Normal }> {
    const [g, d] = await this.both();
    const glue = viaGlue(g, request);
    const direct = viaDirect(d, request);
    if (glue.kind === 'threw') this.#drop('glue');
    if (direct.kind !== 'ok' && direct.kind !== 'err') this.#drop('direct');
    return { glue, direct };
  }
  #drop(which: 'glue' | 'direct'): void {
    (which === 'glue' ? this.#glue : this.#direct)?.close();
    if (which === 'glue') this.#glue = undefined;
    else this.#direct = undefined;
  }
  close(): void {
    this.#glue?.close();
    this.#direct?.close();
  }
}

/**
 * Same answer both ways. A direct call that crossed into an inner component (QuickJS) is run again
 * through the glue by the transport: accepted only where the glue itself fails the call.
 */
function expectSameAnswer({ glue, direct }: { glue: Normal; direct: Normal }): void {
  if (direct.kind === 'needs-glue') {
    expect(glue.kind).toBe('threw');
    return;
  }
  expect(direct).toEqual(glue);
}

beforeAll(async () => {
  for (const lang of LANGS) await ensureGuestsBuilt(lang);
}, 600_000);

const pairs: Pair[] = [];
afterAll(() => {
  for (const p of pairs) p.close();
});

describe.each(POLICY_GUESTS)('example policies, %s: direct call = jco glue', (_label, pattern) => {
  it.each(['guard', 'redact'])('%s is direct-callable and answers every request of the corpus as the glue does', async (policy) => {
    const pair = new Pair(pattern.replace('%s', policy));
    pairs.push(pair);
    const [g] = await pair.both();
    expect(g.plan.ok ? undefined : g.plan.reason).toBeUndefined();
    expect(g.whyNot).toBeUndefined();
    const seen = new Set<string>();
    for (const request of corpus()) {
      const answer = await pair.compare(request);
      expectSameAnswer(answer);
      seen.add(answer.glue.kind === 'ok' ? (answer.glue.decision as { tag: string }).tag : answer.glue.kind);
    }
    // The corpus reaches every decision the policy makes (guard: allow/deny/modify; redact: allow/replace).
    expect([...seen].sort()).toEqual(policy === 'guard' ? ['allow', 'deny', 'modify'] : ['allow', 'replace']);
  });
});

describe.each(CONFORMANCE_DIRS)('conformance guests, %s: direct call = jco glue', (label, dir) => {
  const behaviours = [...BEHAVIOURS, ...(label === 'WAT' || label.startsWith('JS') ? [] : COMPILED_ONLY)];
  it.each(behaviours)('%s', async (behaviour) => {
    const pair = new Pair(join(dir, `${behaviour}.wasm`));
    pairs.push(pair);
    for (const request of [pre('{"a":1}'), pre('{"wrapped":"é"}'), post('{"wrapped":1}', '"out \u{1F600}"', true), post('[]', '{"wrapped":null}', false)]) {
      expectSameAnswer(await pair.compare(request));
    }
  });
});

/**
 * Both engines run the same JS glue: every behaviour on QuickJS, and on SpiderMonkey (a 12 MB guest,
 * two instances per behaviour) one of each kind of answer and of failure.
 */
const SPIDERMONKEY_BEHAVIOURS = ['allow', 'deny', 'modify-wrap', 'replace-error', 'malformed', 'crash', 'oversized'];

describe.each(['quickjs', 'spidermonkey'])('conformance guest, JS (%s, one component, behaviour from a granted environment)', (engine) => {
  it.each(engine === 'quickjs' ? BEHAVIOURS : SPIDERMONKEY_BEHAVIOURS)('%s', async (behaviour) => {
    const pair = new Pair(join(guestBuildDir('js'), engine, 'conformance.wasm'), { BASIS_BEHAVIOUR: behaviour });
    pairs.push(pair);
    for (const request of [pre('{"a":1}'), post('{"wrapped":1}', '"out é"', false)]) expectSameAnswer(await pair.compare(request));
  });
});

describe('guests that use their imports and state', () => {
  it('a guest writing to stdout and stderr during the call: the logs are captured the same way', async () => {
    const pair = new Pair(watGuest('stdio'));
    pairs.push(pair);
    const [g, d] = await pair.both();
    expectSameAnswer(await pair.compare(pre('{}')));
    expect(d.wasi.takeLogs()).toStrictEqual(g.wasi.takeLogs());
  });

  it('a stateful guest counts calls the same way', async () => {
    const pair = new Pair(watGuest('counter'));
    pairs.push(pair);
    for (let i = 0; i < 5; i++) expectSameAnswer(await pair.compare(post('{}', '1', false)));
  });

  it('err(message) is an err outcome, as the glue throws ComponentError', async () => {
    const pair = new Pair(watGuest('err'));
    pairs.push(pair);
    const answer = await pair.compare(pre('{}'));
    expect(answer.direct.kind).toBe('err');
    expectSameAnswer(answer);
  });

  it('a trap propagates and the caller refuses any further call', async () => {
    const both = await instantiateBothWays(join(guestBuildDir('wat'), 'conformance', 'crash.wasm'), TEST_CACHE_DIR);
    try {
      expect(() => both.direct?.call(pre('{}'))).toThrow(Wasm.RuntimeError);
      expect(both.direct?.usable).toBe(false);
      expect(() => both.direct?.call(pre('{}'))).toThrow(/unusable/);
    } finally {
      both.close();
    }
  });

  it('a QuickJS hook that throws: the JS glue turns it into err, on both paths (no crossing into an inner component)', async () => {
    // Before the contract-shaped JS glue, a throw trapped inside QuickJS's inner component, which the
    // direct caller told apart as needs-glue; the glue now catches it and answers err.
    const pair = new Pair(join(guestBuildDir('js'), 'quickjs', 'conformance.wasm'), { BASIS_BEHAVIOUR: 'crash' });
    pairs.push(pair);
    const [, direct] = await pair.both();
    expect(direct.direct?.call(pre('{}'))).toMatchObject({ type: 'err' });
    expectSameAnswer(await pair.compare(pre('{}')));
  });

  it('the output cap is checked on lengths before anything is decoded', async () => {
    const both = await instantiateBothWays(join(guestBuildDir('wat'), 'conformance', 'oversized.wasm'), TEST_CACHE_DIR);
    try {
      const outcome = both.direct?.call(pre('{}'), 1024);
      expect(outcome).toMatchObject({ type: 'too-large' });
      expect(outcome?.type === 'too-large' && outcome.bytes).toBeGreaterThan(1024);
      // The guest returned normally (its post-return ran): the instance keeps working.
      expect(both.direct?.call(pre('{}'))).toMatchObject({ type: 'ok' });
    } finally {
      both.close();
    }
  });
});

describe('guests that break the canonical ABI → a typed abi outcome, never a host crash', () => {
  let paths: Map<string, string>;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'basis-hooks-abi-'));
    paths = await buildAbiViolationGuests(dir);
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(ABI_VIOLATIONS.map((g) => [g.name, g.violation] as const))('%s → abi (%s)', async (name, violation) => {
    const path = paths.get(name);
    if (path === undefined) throw new Error(`not built: ${name}`);
    const both = await instantiateBothWays(path, TEST_CACHE_DIR);
    try {
      expect(both.whyNot).toBeUndefined();
      const outcome = both.direct?.call(pre('{"command":"ls"}'));
      expect(outcome).toMatchObject({ type: 'abi', violation });
      expect(both.direct?.usable).toBe(false);
      // jco's glue throws too (bounds, discriminants; invalid UTF-8 since its decoders are made strict at
      // transpile time): both paths refuse what the guest returned.
      const glue = viaGlue(both, pre('{"command":"ls"}'));
      if (violation === 'utf8') expect(glue).toMatchObject({ kind: 'threw' });
    } finally {
      both.close();
    }
  });
});

describe('the planner', () => {
  const glue = async (): Promise<string> => {
    const both = await instantiateBothWays(join(guestBuildDir('wat'), 'guard.wasm'), TEST_CACHE_DIR);
    both.close();
    return glueSource(both.component.glueUrl);
  };

  it('finds the canon options in different core instances for QuickJS (handler and memory apart)', async () => {
    const both = await instantiateBothWays(join(guestBuildDir('js'), 'quickjs', 'guard.wasm'), TEST_CACHE_DIR);
    both.close();
    if (!both.plan.ok) throw new Error(both.plan.reason);
    expect(both.plan.plan.fn.instance).not.toBe(both.plan.plan.memory.instance);
    expect(both.plan.plan.realloc.instance).toBe(both.plan.plan.fn.instance);
    expect(both.plan.plan.postReturn).toBeDefined();
  });

  it('a plan is plain data that survives a trip to a worker (JSON, then its schema)', async () => {
    for (const path of [join(guestBuildDir('js'), 'quickjs', 'guard.wasm'), join(guestBuildDir('c'), 'guard.wasm')]) {
      const both = await instantiateBothWays(path, TEST_CACHE_DIR);
      both.close();
      if (!both.plan.ok) throw new Error(both.plan.reason);
      expect(DirectPlanSchema.parse(JSON.parse(JSON.stringify(both.plan.plan)))).toStrictEqual(both.plan.plan);
      expect(DirectPlanSchema.parse(structuredClone(both.plan.plan))).toStrictEqual(both.plan.plan);
    }
  });

  it.each([
    ['another handler version', (g: string) => g, 'basis:hook/handler@2.0.0'],
    ['a UTF-16 lowering', (g: string) => g.replaceAll('_utf8AllocateAndEncode', '_utf16AllocateAndEncode'), undefined],
    ['another record size', (g: string) => g.replace('(0, 0, 4, 64)', '(0, 0, 4, 72)'), undefined],
    ['another field offset', (g: string) => g.replace('ptr0 + 44', 'ptr0 + 48'), undefined],
    ['another result offset', (g: string) => g.replace('ret + 17', 'ret + 18'), undefined],
    ['an async lift', (g: string) => g.replace('isAsync: false', 'isAsync: true'), undefined],
    ['exports from somewhere else', (g: string) => g.replace(/(\n\s*)memory0 = exports0\.memory;/, '$1memory0 = someOtherThing.memory;'), undefined],
  ])('refuses %s (the glue path stays)', async (_what, edit, handler) => {
    const source = await glue();
    const plan = hookBinding({ handler: 'basis:hook/handler@1.0.0', maxOutputBytes: 1 }).plan;
    expect(planDirectCall(source, 'basis:hook/handler@1.0.0', 'handle', plan).ok).toBe(true);
    const result = planDirectCall(edit(source), handler ?? 'basis:hook/handler@1.0.0', 'handle', plan);
    expect(result.ok).toBe(false);
  });
});

describe('post-return may not leave the component', () => {
  /** A core module whose post-return calls a host import ($log), and whose handle may too. */
  const WAT = `(module
    (import "env" "log" (func $log (param i32)))
    (memory (export "memory") 1)
    (global $heap (mut i32) (i32.const 1024))
    (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $heap) (i32.const 7)) (i32.const -8)))
      (global.set $heap (i32.add (local.get $p) (local.get 3)))
      (local.get $p))
    (func (export "handle") (param i32) (result i32)
      (call $log (i32.const 1))
      (memory.fill (i32.const 16) (i32.const 0) (i32.const 32))
      (i32.const 16))
    (func (export "post") (param i32)
      (global.set $heap (i32.const 1024))
      (call $log (i32.const 2))))`;

  it('a host import called during the call runs; called from post-return, it is refused as an ABI violation', async () => {
    const { parseWat } = await import('../../host/kit/build/wasm-tools.js');
    const { CoreInstances } = await import('../../host/engine/instance/core-instances.js');
    const { ImportGate } = await import('../../host/engine/instance/gate.js');
    const { AbiSession } = await import('../../host/engine/instance/abi.js');
    const logged: number[] = [];
    const gate = new ImportGate();
    const instances = new CoreInstances(gate);
    const instantiate = instances.wrap((module, imports) => Wasm.instantiate(module, imports));
    const instance = await instantiate(await Wasm.compile(await parseWat(WAT)), { env: { log: (n: number) => logged.push(n) } });
    const e = instance.exports as {
      memory: WasmMemory;
      cabi_realloc: (a: number, b: number, c: number, d: number) => number;
      handle: (p: number) => number;
      post: (p: number) => void;
    };
    const caller = directCaller(new AbiSession({ memory: e.memory, realloc: e.cabi_realloc, fn: e.handle, postReturn: e.post, gate }), 'basis:hook/handler@1.0.0');
    expect(caller.call(pre('{}'))).toMatchObject({ type: 'abi', violation: 'post-return-import' });
    expect(logged).toEqual([1]);
    expect(gate.open).toBe(true);
    expect(caller.usable).toBe(false);
  });
});
