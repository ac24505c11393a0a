import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditEvent,
  ConfigError,
  HookRunner,
  componentTransport,
  createRunner,
  parseConfig,
  subprocessTransport,
  type HookDefinition,
  type RunnerOptions,
} from '../../host/index.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { answerBody, ensureOpsGuests, postCall, preCall, shHook, watBehaviour } from './helpers.js';

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function runner(hooks: HookDefinition[], options: RunnerOptions = {}): HookRunner {
  const r = new HookRunner(hooks, options);
  runners.push(r);
  return r;
}

async function component(behaviour: string): Promise<ReturnType<typeof componentTransport>> {
  const transport = componentTransport({ path: watBehaviour(behaviour), cache_dir: TEST_CACHE_DIR });
  await transport.load();
  return transport;
}

beforeAll(ensureOpsGuests, 300_000);

describe('shadow hooks', () => {
  it('a shadow deny is recorded, marked shadow, and never changes the outcome', async () => {
    const r = runner([
      { name: 'would-deny', event: 'pre_tool_use', mode: 'shadow', transport: await component('deny') },
      { name: 'allow', event: 'pre_tool_use', transport: await component('allow') },
    ]);
    const outcome = await r.pre(preCall('c1', { command: 'ls' }));
    expect(outcome.decision).toBe('allow');
    expect(outcome.trail.map((e) => [e.hook, e.decision, e.shadow])).toEqual([
      ['would-deny', 'deny', true],
      ['allow', 'allow', undefined],
    ]);
    expect(outcome.trail[0]?.reason).toBe('denied by conformance hook');
  });

  it('sees the state the next enforcing hook sees; its proposed rewrite is recorded, not applied', async () => {
    const dir = await tempDir();
    const seen = `${dir}/seen.json`;
    const recorder = await shHook(dir, 'record.sh', `cat > ${seen}\necho '{"decision":"modify","input":"from the shadow"}'`);
    const r = runner([
      { name: 'wrap', event: 'pre_tool_use', transport: await component('modify-wrap') },
      { name: 'shadow-component', event: 'pre_tool_use', mode: 'shadow', transport: await component('deny-if-wrapped') },
      { name: 'shadow-recorder', event: 'pre_tool_use', mode: 'shadow', transport: subprocessTransport({ command: [recorder] }) },
      { name: 'enforcing', event: 'pre_tool_use', transport: await component('deny-if-wrapped') },
    ]);
    const outcome = await r.pre(preCall('c1', { command: 'ls' }), { wait_for_shadows: true });
    // The enforcing hook after the shadows saw the wrapped input and denied; so did the shadow.
    expect(outcome.decision).toBe('deny');
    expect(outcome.trail.map((e) => [e.hook, e.decision, e.shadow === true])).toEqual([
      ['wrap', 'modify', false],
      ['shadow-component', 'deny', true],
      ['shadow-recorder', 'modify', true],
      ['enforcing', 'deny', false],
    ]);
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({ input: { wrapped: { command: 'ls' } } });
    expect(outcome.trail[2]?.input).toBe('from the shadow');
  });

  it('a shadow replace after the call is proposed only: the model sees the output the enforcing hooks left', async () => {
    const r = runner([{ name: 'replace', event: 'post_tool_use', mode: 'shadow', transport: await component('replace-error') }]);
    const outcome = await r.post(postCall('c1', { command: 'env' }, 'SECRET=1'), { wait_for_shadows: true });
    expect(outcome).toMatchObject({ decision: 'allow', output: 'SECRET=1', is_error: false, replaced: false });
    expect(outcome.trail[0]).toMatchObject({ hook: 'replace', decision: 'replace', shadow: true, output: 'replaced as error', is_error: true });
  });

  it('a shadow failure never denies, whatever its on_failure', async () => {
    const dir = await tempDir();
    const crash = await shHook(dir, 'crash.sh', 'cat >/dev/null\necho \'{"decision":"allow"}\'\nexit 3');
    const r = runner([
      { name: 'trap', event: 'pre_tool_use', mode: 'shadow', on_failure: 'deny', transport: await component('crash') },
      { name: 'exit', event: 'pre_tool_use', mode: 'shadow', on_failure: 'deny', transport: subprocessTransport({ command: [crash] }) },
    ]);
    const outcome = await r.pre(preCall('c1', 'x'), { wait_for_shadows: true });
    expect(outcome.decision).toBe('allow');
    expect(outcome.trail.map((e) => [e.hook, e.failure?.code, e.decision, e.policy, e.shadow])).toEqual([
      ['trap', 'trap', 'deny', 'deny', true],
      ['exit', 'exit_nonzero', 'deny', 'deny', true],
    ]);
  });

  it('a hanging shadow costs the enforced path nothing; its decision reaches the audit stream when it ends', async () => {
    const dir = await tempDir();
    const hang = await shHook(dir, 'hang.sh', 'cat >/dev/null\nsleep 30');
    const allow = await shHook(dir, 'allow.sh', answerBody({ decision: 'allow' }));
    const events: AuditEvent[] = [];
    const r = runner(
      [
        { name: 'hang', event: 'pre_tool_use', mode: 'shadow', transport: subprocessTransport({ command: [hang], timeout_ms: 20_000 }) },
        { name: 'allow', event: 'pre_tool_use', transport: subprocessTransport({ command: [allow] }) },
      ],
      { audit: (event) => events.push(event) },
    );
    const started = performance.now();
    const outcome = await r.pre(preCall('c1', 'x'));
    // A generous bound, far below the shadow's 20 s timeout (and its 30 s sleep).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcome.decision).toBe('allow');
    expect(outcome.trail.map((e) => e.hook)).toEqual(['allow']);
    expect(events.map((e) => e.type)).toEqual(['chain_started', 'hook_decided', 'chain_decided']);
    // Closing stops the shadow; its decision (a timeout) is still recorded, after its chain's verdict.
    await r.close();
    const late = events.at(-1);
    expect(late).toMatchObject({ type: 'hook_decided', hook: 'hang', shadow: true, failure: { code: 'timeout' }, tool_call_id: 'c1' });
  });

  it('in-thread shadows answer within the chain, so the outcome has their entry without waiting', async () => {
    const r = runner([{ name: 'last', event: 'pre_tool_use', mode: 'shadow', transport: await component('deny') }]);
    const outcome = await r.pre(preCall('c1', 'x'));
    expect(outcome.trail).toEqual([expect.objectContaining({ hook: 'last', decision: 'deny', shadow: true })]);
  });

  it('a shadow placed after a deny does not run: the call never reached it', async () => {
    const r = runner([
      { name: 'deny', event: 'pre_tool_use', transport: await component('deny') },
      { name: 'shadow', event: 'pre_tool_use', mode: 'shadow', transport: await component('allow') },
    ]);
    const outcome = await r.pre(preCall('c1', 'x'), { wait_for_shadows: true });
    expect(outcome.trail.map((e) => e.hook)).toEqual(['deny']);
  });

  it('mode comes from the config; an unknown mode is a config error', async () => {
    const dir = await tempDir();
    const config = parseConfig(
      { hook_schema: 1, hooks: [{ name: 'would-deny', event: 'pre_tool_use', mode: 'shadow', component: watBehaviour('deny') }] },
      `${dir}/hooks.json`,
    );
    const r = await createRunner(config, { cache_dir: TEST_CACHE_DIR });
    runners.push(r);
    const outcome = await r.pre(preCall('c1', 'x'));
    expect(outcome).toMatchObject({ decision: 'allow', trail: [{ hook: 'would-deny', decision: 'deny', shadow: true }] });

    let error: unknown;
    try {
      parseConfig({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', mode: 'observe', command: ['true'] }] }, 'hooks.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['hooks[0].mode']);
  });
});
