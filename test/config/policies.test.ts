/**
 * Cedar and CEL hooks in a hooks.json: the keys (paths resolved beside the config, errors naming the
 * JSON path), `when` and CEL `tools` entries on any hook, createRunner and check loading them before
 * any call (a bad policy named with its file or rule, line and column), and pinning a Cedar hook's
 * three files.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkConfig, ConfigError, createRunner, hookDigest, isHookError, isPolicyError, parseConfig, type PolicyError } from '../../host/index.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const POLICY = '@reason("no force-push")\nforbid (principal, action == Action::"shell", resource) when { context.input.command like "*--force*" };\npermit (principal, action, resource);\n';
const call = (tool_name: string, input: unknown, agent_id = 'agent-1') => ({ workspace: '/repo', agent_id, tool_call_id: 'c1', tool_name, input: JSON.stringify(input) });

/** The PolicyError somewhere down an error's causes (a hook's load wraps the transport's, which wraps it). */
function policyCause(error: unknown): PolicyError | undefined {
  for (let at: unknown = error; at instanceof Error; at = at.cause) if (isPolicyError(at)) return at;
  return undefined;
}

function configError(value: unknown): ConfigError {
  try {
    parseConfig(value, '/etc/agent/hooks.json');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the config parsed');
}

describe('config: policy hooks', () => {
  it('resolves a Cedar hook\'s files beside the config; keeps CEL rules as written', () => {
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'cedar', event: 'pre_tool_use', cedar: 'p/tools.cedar', entities: 'p/entities.json', schema: 'p/tools.cedarschema', decision_cache: 100 },
          { name: 'cel', event: 'pre_tool_use', cel: [{ when: 'true', decision: 'allow' }], cost_limit: 500 },
        ],
      },
      '/etc/agent/hooks.json',
    );
    expect(config.hooks[0]).toMatchObject({ cedar: '/etc/agent/p/tools.cedar', entities: '/etc/agent/p/entities.json', schema: '/etc/agent/p/tools.cedarschema' });
    expect(config.hooks[1]).toMatchObject({ cel: [{ when: 'true', decision: 'allow' }], cost_limit: 500 });
  });

  it('names the JSON path of every problem: a deny rule without reason, a key of another kind, a typo, sha256 on a CEL hook', () => {
    const error = configError({
      hook_schema: 1,
      hooks: [
        { name: 'a', event: 'pre_tool_use', cel: [{ when: 'true', decision: 'deny' }] },
        { name: 'b', event: 'pre_tool_use', cedar: 'x.cedar', timeout_ms: 5 },
        { name: 'c', event: 'pre_tool_use', cedar: 'x.cedar', entites: 'e.json' },
        { name: 'd', event: 'pre_tool_use', cel: [{ when: 'true', decision: 'allow' }], sha256: 'a'.repeat(64) },
      ],
    });
    const paths = error.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['hooks[0].cel[0].reason', 'hooks[1].timeout_ms', 'hooks[2].entites', 'hooks[3].sha256']));
    expect(error.issues.find((i) => i.path === 'hooks[1].timeout_ms')?.message).toContain('belongs to command hooks');
    expect(error.issues.find((i) => i.path === 'hooks[2].entites')?.message).toContain('did you mean "entities"');
  });

  it('createRunner loads Cedar and CEL hooks, a when on a command hook and CEL tools entries; the chain decides with all of them', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'tools.cedar': POLICY, 'hooks/deny.mjs': "process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'the command hook ran' }));\n" });
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'cedar', event: 'pre_tool_use', tools: ['shell'], cedar: 'tools.cedar' },
          { name: 'cel', event: 'pre_tool_use', tools: [{ cel: "tool_name.startsWith('mcp__')" }], cel: [{ when: "agent_id == 'triage-bot'", decision: 'deny', reason: 'no MCP for triage-bot' }] },
          { name: 'only-deploys', event: 'pre_tool_use', tools: ['deploy', { cel: "tool_name.endsWith('_deploy')" }], when: "input.env == 'prod'", command: ['node', 'hooks/deny.mjs'] },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    const runner = await createRunner(config);
    try {
      expect(await runner.pre(call('shell', { command: 'git push --force' }))).toMatchObject({ decision: 'deny', reason: 'no force-push' });
      expect(await runner.pre(call('mcp__github__x', {}, 'triage-bot'))).toMatchObject({ decision: 'deny', reason: 'no MCP for triage-bot' });
      expect(await runner.pre(call('mcp__github__x', {}, 'agent-1'))).toMatchObject({ decision: 'allow' });
      expect(await runner.pre(call('deploy', { env: 'staging' }))).toMatchObject({ decision: 'allow', trail: [] });
      expect(await runner.pre(call('app_deploy', { env: 'prod' }))).toMatchObject({ decision: 'deny', reason: 'the command hook ran' });
      expect(await runner.pre(call('deploy', { env: 'prod' }))).toMatchObject({ decision: 'deny', reason: 'the command hook ran' });
    } finally {
      await runner.close();
    }
  });

  it('createRunner rejects a bad when, a CEL tools entry reading more than tool_name, and a bad Cedar policy: load_failed naming the hook and where', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'bad.cedar': 'permit (principal, action, resource);\nforbid (principal, action, resource) when { context.x == };\n' });
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ name: 'w', event: 'pre_tool_use', when: "input.command ==", command: ['true'] }, /^hook "w": when, column 17: /, 'syntax'],
      [{ name: 't', event: 'pre_tool_use', tools: ['x', { cel: "input.a == 1" }], command: ['true'] }, /^hook "t": tools\[1\]\.cel, column 1: input cannot be read here/, 'validation'],
      [{ name: 'p', event: 'pre_tool_use', when: "output == 'x'", command: ['true'] }, /does not exist before the call/, 'absent_field'],
      [{ name: 'c', event: 'pre_tool_use', cedar: 'bad.cedar' }, /bad\.cedar:2:\d+: /, 'syntax'],
    ];
    for (const [hook, message, problem] of cases) {
      const error = await createRunner(parseConfig({ hook_schema: 1, hooks: [hook] }, path.join(dir, 'hooks.json'))).then(() => undefined, (e: unknown) => e);
      expect(isHookError(error) && error.code, JSON.stringify(hook)).toBe('load_failed');
      expect((error as Error).message).toMatch(message);
      expect(policyCause(error)?.problem).toBe(problem);
    }
  });

  it('check reports a Cedar hook that does not validate (file, line, column) and Cedar\'s warnings, without running anything', async () => {
    const dir = await tempDir();
    const schema = 'entity Agent; entity Workspace; action "shell" appliesTo { principal: Agent, resource: Workspace, context: { input: { command: String }, event: String } };';
    await writeFiles(dir, {
      'good.cedar': POLICY,
      'typo.cedar': 'permit (principal, action, resource)\nwhen { context.input.comand == "x" };',
      'impossible.cedar': `${POLICY}forbid (principal, action, resource) when { 1 == 2 };`,
      'tools.cedarschema': schema,
    });
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'good', event: 'pre_tool_use', cedar: 'good.cedar', schema: 'tools.cedarschema' },
          { name: 'typo', event: 'pre_tool_use', cedar: 'typo.cedar', schema: 'tools.cedarschema' },
          { name: 'impossible', event: 'pre_tool_use', cedar: 'impossible.cedar', schema: 'tools.cedarschema' },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    const report = await checkConfig(config);
    expect(report.ok).toBe(false);
    expect(report.hooks[0]).toMatchObject({ name: 'good', kind: 'cedar', ok: true });
    expect(report.hooks[1]).toMatchObject({ name: 'typo', kind: 'cedar', ok: false, code: 'load_failed' });
    if (!report.hooks[1]?.ok) expect(report.hooks[1]?.message).toContain(`${path.join(dir, 'typo.cedar')}:2:8:`);
    // A policy that can never apply loads, with Cedar's warning as check's.
    expect(report.hooks[2]).toMatchObject({ name: 'impossible', ok: true, warnings: [expect.stringMatching(/impossible\.cedar:4:1: .*policy is impossible/)] });
  });

  it('pins a Cedar hook\'s policies, entities and schema: the digest of their digests, checked on what the loader read', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'tools.cedar': POLICY, 'entities.json': '[]', 'tools.cedarschema': 'entity Agent; entity Workspace; action "shell" appliesTo { principal: Agent, resource: Workspace, context: { input: { command: String }, event: String } };' });
    const hook = { name: 'cedar', event: 'pre_tool_use', cedar: 'tools.cedar', entities: 'entities.json', schema: 'tools.cedarschema' };
    const files = ['tools.cedar', 'entities.json', 'tools.cedarschema'].map((f) => path.join(dir, f));
    const digests = await Promise.all(files.map(async (f) => createHash('sha256').update(await readFile(f)).digest('hex')));
    const expected = createHash('sha256').update(digests.map((d) => `${d}\n`).join('')).digest('hex');
    const config = parseConfig({ hook_schema: 1, hooks: [hook] }, path.join(dir, 'hooks.json'));
    expect(await hookDigest(config.hooks[0]!)).toEqual({ files, sha256: expected, uncovered: [] });
    const pinned = await createRunner(parseConfig({ hook_schema: 1, hooks: [{ ...hook, sha256: expected }] }, path.join(dir, 'hooks.json')));
    await pinned.close();
    const wrong = await createRunner(parseConfig({ hook_schema: 1, hooks: [{ ...hook, sha256: 'a'.repeat(64) }] }, path.join(dir, 'hooks.json'))).then(() => undefined, (e: unknown) => e);
    expect(isHookError(wrong) && wrong.code).toBe('load_failed');
    expect((wrong as Error).message).toContain(`has sha256 ${expected}, but the hook is pinned to ${'a'.repeat(64)}`);
  });
});
