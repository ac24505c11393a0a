/**
 * Both ways the transport calls `handle`, on every example guest: straight through the canonical ABI
 * (the default, `direct_call: true`) and through jco's glue (`direct_call: false`, and the fallback
 * for any component shaped otherwise). Each guest's load says which path it took, and every example
 * policy case gets the same outcome (decision, rewrite, reason in the trail) both ways, in both
 * isolations. The caller-level equivalence on wider corpora is test/perf/direct-call.test.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, type Outcome } from '../../host/index.js';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { ensureGuestsBuilt, guestBuildDir, TEST_CACHE_DIR } from '../helpers/guests.js';
import { loadPolicyCases } from '../helpers/policy-cases.js';

/**
 * Worker isolation runs the same engine Instance in its worker, fed by the mailbox: three guests there
 * (a hand-written one, a native one, a JS engine) keep the file's time down; every guest runs metered.
 */
const IN_WORKERS = new Set(['WAT', 'C', 'JS (QuickJS)']);

const GUESTS: ReadonlyArray<readonly [label: string, lang: string, dir: string]> = [
  ['WAT', 'wat', guestBuildDir('wat')],
  ['C', 'c', guestBuildDir('c')],
  ['Rust std', 'rust', join(guestBuildDir('rust'), 'std')],
  ['Rust no_std', 'rust', join(guestBuildDir('rust'), 'nostd')],
  ['AssemblyScript', 'assemblyscript', guestBuildDir('assemblyscript')],
  ['JS (QuickJS)', 'js', join(guestBuildDir('js'), 'quickjs')],
  ['JS (SpiderMonkey)', 'js', join(guestBuildDir('js'), 'spidermonkey')],
  ['TS (QuickJS)', 'ts', join(guestBuildDir('ts'), 'quickjs')],
  ['TS (SpiderMonkey)', 'ts', join(guestBuildDir('ts'), 'spidermonkey')],
];

const CASES = loadPolicyCases();
const transports: ComponentTransport[] = [];

beforeAll(async () => {
  for (const lang of new Set(GUESTS.map(([, l]) => l))) await ensureGuestsBuilt(lang);
}, 600_000);
afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
});

/** An outcome without the timings, which differ from run to run. */
function timeless(outcome: Outcome): unknown {
  return { ...outcome, trail: outcome.trail.map(({ ms: _ms, ...entry }) => entry) };
}

async function open(path: string, isolation: 'metered' | 'worker', direct: boolean): Promise<{ transport: ComponentTransport; path: string | undefined }> {
  const transport = componentTransport({ path, cache_dir: TEST_CACHE_DIR, isolation, direct_call: direct, pool_size: 1, timeout_ms: 10_000 });
  transports.push(transport);
  const info = await transport.load();
  return { transport, path: info.call?.path };
}

describe.each(GUESTS)('%s: the direct call and the glue answer alike', (label, _lang, dir) => {
  const isolations = IN_WORKERS.has(label) ? (['metered', 'worker'] as const) : (['metered'] as const);
  it.each(['guard', 'redact'] as const)(`%s: loads direct (or glue when asked), and every policy case has the same outcome both ways (${isolations.join(', ')})`, async (hook) => {
    const path = join(dir, `${hook}.wasm`);
    for (const isolation of isolations) {
      const direct = await open(path, isolation, true);
      const glue = await open(path, isolation, false);
      expect(direct.path).toBe('direct');
      expect(glue.path).toBe('glue');
      for (const c of CASES.filter((x) => x.hook === hook)) {
        const run = (t: ComponentTransport): Promise<Outcome> => new HookRunner([{ name: hook, event: c.call.event, transport: { kind: t.kind, invoke: (r, ctx) => t.invoke(r, ctx) } }]).run(c.call);
        const [viaDirect, viaGlue] = [await run(direct.transport), await run(glue.transport)];
        expect(viaDirect.trail[0]?.failure, `${c.name} (${isolation})`).toBeUndefined();
        expect(viaDirect.trail[0]?.decision, `${c.name} (${isolation})`).toBe(c.expect.decision);
        expect(timeless(viaDirect), `${c.name} (${isolation})`).toStrictEqual(timeless(viaGlue));
      }
      await Promise.all([direct.transport.close(), glue.transport.close()]);
    }
  }, 120_000);
});

describe('the load says why a component is called through the glue', () => {
  it('direct_call: false', async () => {
    const { path } = await open(join(guestBuildDir('c'), 'guard.wasm'), 'metered', false);
    expect(path).toBe('glue');
    const transport = componentTransport({ path: join(guestBuildDir('c'), 'guard.wasm'), cache_dir: TEST_CACHE_DIR, direct_call: false });
    transports.push(transport);
    expect((await transport.load()).call).toStrictEqual({ path: 'glue', why: 'direct_call is false' });
  });

  it('a direct_call that is not a boolean is refused at construction (invalid_options)', () => {
    expect(() => componentTransport({ path: join(guestBuildDir('c'), 'guard.wasm'), direct_call: 'yes' as unknown as boolean })).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });
});

describe('worker isolation: a request and an answer larger than the mailbox go by postMessage', () => {
  it('a 1.5 MB output redacted in a worker comes back whole, and the next small call takes the mailbox again', async () => {
    const transport = componentTransport({ path: join(guestBuildDir('c'), 'redact.wasm'), cache_dir: TEST_CACHE_DIR, isolation: 'worker', pool_size: 1, max_output_bytes: 4 * 1024 * 1024, timeout_ms: 10_000 });
    transports.push(transport);
    await transport.load();
    const runner = new HookRunner([{ name: 'redact', event: 'post_tool_use', transport: { kind: transport.kind, invoke: (r, c) => transport.invoke(r, c) } }]);
    const filler = 'x'.repeat(1_500_000);
    const post = (output: string) => ({ event: 'post_tool_use' as const, workspace: '/repo', agent_id: 'a', tool_call_id: 'big', tool_name: 'shell', input: { command: 'cat' }, output, is_error: false });
    const big = await runner.post(post(`${filler} key=AKIAIOSFODNN7EXAMPLE done`));
    expect(big).toMatchObject({ decision: 'allow', replaced: true, output: `${filler} key=[REDACTED] done` });
    const small = await runner.post(post('key=AKIAIOSFODNN7EXAMPLE'));
    expect(small).toMatchObject({ decision: 'allow', replaced: true, output: 'key=[REDACTED]' });
  }, 60_000);
});
