import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  armConfig,
  armRunner,
  createRunner,
  parseCases,
  parseConfig,
  type HookRunner,
} from '../../host/index.js';
import type { LocatedCase } from '../../host/index.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { answerBody, ensureOpsGuests, policyGuest, shHook, watBehaviour } from './helpers.js';

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

/**
 * The policy cases every guest language passes, for the two policy hooks — those at the event each
 * hook is declared for: in a real chain a pre_tool_use hook never sees a post_tool_use call (the
 * kit's `test` registers the hook at each case's event; an armed check does not).
 */
async function policyCases(): Promise<readonly LocatedCase[]> {
  const parsed = parseCases(await readFile(`${ROOT}/guest-examples/policy-cases.jsonl`, 'utf8'), 'policy-cases.jsonl');
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const events: Record<string, string> = { guard: 'pre_tool_use', redact: 'post_tool_use' };
  return parsed.cases.filter((c) => events[c.case.hook ?? ''] === c.case.call.event);
}

function cases(lines: readonly object[]): readonly LocatedCase[] {
  const parsed = parseCases(lines.map((l) => JSON.stringify(l)).join('\n'), 'cases.jsonl');
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.cases;
}

const call = { workspace: '/repo', agent_id: 'agent-1', tool_name: 'shell' } as const;

beforeAll(ensureOpsGuests, 300_000);

describe('armed check', () => {
  it('runs canaries through the real chain: per hook loads, cases, calls answered, first-call and warm latency', async () => {
    const dir = await tempDir();
    const audit = await shHook(dir, 'audit.sh', answerBody({ decision: 'allow' }));
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'guard', event: 'pre_tool_use', tools: ['shell'], component: policyGuest('wat', 'guard') },
          { name: 'audit-log', event: 'pre_tool_use', command: [audit] },
          { name: 'redact', event: 'post_tool_use', component: policyGuest('c', 'redact') },
        ],
      },
      `${dir}/hooks.json`,
    );
    const chainCases = cases([
      { name: 'a force-push to a branch becomes a lease', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k1', input: { command: 'git push -f origin feature' } }, expect: { decision: 'modify', input: { command: 'git push --force-with-lease origin feature' } } },
    ]);
    const report = await armConfig(config, [...(await policyCases()), ...chainCases], { cache_dir: TEST_CACHE_DIR, warm_passes: 1 });
    expect(report.hooks.flatMap((h) => h.problems)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.passes).toBe(2);
    expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
    const byName = new Map(report.hooks.map((h) => [h.name, h]));
    for (const name of ['guard', 'audit-log', 'redact']) {
      const h = byName.get(name);
      expect(h).toMatchObject({ loaded: true, ok: true, problems: [] });
      expect(h?.calls).toBeGreaterThan(1);
      expect(h?.answered).toBe(h?.calls);
      expect(h?.first_call_ms).toBeGreaterThan(0);
      expect(h?.warm_ms).toBeGreaterThan(0);
      expect(h?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(byName.get('guard')?.cases.passed).toBeGreaterThan(3);
    expect(byName.get('audit-log')?.cases).toEqual({ passed: 0, failed: 0 });
  });

  it('a hook that cannot answer (it traps) is reported with the failure; the report is not ok', async () => {
    const runner = await createRunner(
      parseConfig({ hook_schema: 1, hooks: [{ name: 'crashy', event: 'pre_tool_use', on_failure: 'allow', component: watBehaviour('crash') }] }, '/tmp/hooks.json'),
      { cache_dir: TEST_CACHE_DIR },
    );
    runners.push(runner);
    const report = await armRunner(runner, cases([{ name: 'anything', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k1', input: 'ls' }, expect: { decision: 'allow' } }]));
    // The chain allowed (fail open), so the chain-level case passes: the hook still did not answer.
    expect(report.cases[0]?.status).toBe('pass');
    expect(report.ok).toBe(false);
    expect(report.hooks[0]).toMatchObject({ ok: false, answered: 0, failures: { trap: 3 } });
    expect(report.hooks[0]?.problems[0]).toContain('trap');
  });

  it('a failure a case expects is no problem; a hook no canary reaches is one', async () => {
    const dir = await tempDir();
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'hang', event: 'pre_tool_use', tools: ['slow'], timeout_ms: 50, component: watBehaviour('hang'), isolation: 'worker' },
          { name: 'never', event: 'post_tool_use', component: watBehaviour('allow') },
        ],
      },
      `${dir}/hooks.json`,
    );
    const report = await armConfig(
      config,
      cases([{ name: 'hang times out', hook: 'hang', call: { ...call, tool_name: 'slow', event: 'pre_tool_use', tool_call_id: 'k1', input: 'x' }, expect: { failure: 'timeout' } }]),
      { cache_dir: TEST_CACHE_DIR, warm_passes: 0 },
    );
    expect(report.hooks.map((h) => [h.name, h.ok])).toEqual([
      ['hang', true],
      ['never', false],
    ]);
    expect(report.hooks[1]?.problems).toEqual([expect.stringContaining('no canary reached it')]);
    expect(report.ok).toBe(false);
  });

  it('a case for a hook the chain never reached fails, saying so', async () => {
    const runner = await createRunner(
      parseConfig(
        {
          hook_schema: 1,
          hooks: [
            { name: 'deny', event: 'pre_tool_use', component: watBehaviour('deny') },
            { name: 'after', event: 'pre_tool_use', component: watBehaviour('allow') },
          ],
        },
        '/tmp/hooks.json',
      ),
      { cache_dir: TEST_CACHE_DIR },
    );
    runners.push(runner);
    const report = await armRunner(runner, cases([{ name: 'after allows', hook: 'after', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k1', input: 'x' }, expect: { decision: 'allow' } }]), { warm_passes: 0 });
    expect(report.cases[0]).toMatchObject({ status: 'fail', note: expect.stringContaining('did not run') as unknown });
  });

  it('does not run canaries through an incomplete chain: a hook that does not load stops them', async () => {
    const dir = await tempDir();
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'ok', event: 'pre_tool_use', component: watBehaviour('allow') },
          { name: 'garbage', event: 'pre_tool_use', component: `${ROOT}/guest-examples/wat/build/garbage.wasm` },
        ],
      },
      `${dir}/hooks.json`,
    );
    const report = await armConfig(config, cases([{ name: 'x', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k1', input: 'x' }, expect: { decision: 'allow' } }]), { cache_dir: TEST_CACHE_DIR });
    expect(report.ok).toBe(false);
    expect(report.cases).toEqual([]);
    expect(report.hooks.map((h) => [h.name, h.loaded, h.load_failure?.code])).toEqual([
      ['ok', true, undefined],
      ['garbage', false, 'load_failed'],
    ]);
  });

  it('a shadow hook\'s canary is about what it proposed', async () => {
    const runner = await createRunner(
      parseConfig({ hook_schema: 1, hooks: [{ name: 'wrap', event: 'pre_tool_use', mode: 'shadow', component: watBehaviour('modify-wrap') }] }, '/tmp/hooks.json'),
      { cache_dir: TEST_CACHE_DIR },
    );
    runners.push(runner);
    const report = await armRunner(
      runner,
      cases([
        { name: 'proposes the wrap', hook: 'wrap', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k1', input: { a: 1 } }, expect: { decision: 'modify', input: { wrapped: { a: 1 } } } },
        { name: 'the chain does not apply it', call: { ...call, event: 'pre_tool_use', tool_call_id: 'k2', input: { a: 1 } }, expect: { decision: 'allow' } },
      ]),
      { warm_passes: 0 },
    );
    expect(report.cases.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(report.ok).toBe(true);
  });
});
