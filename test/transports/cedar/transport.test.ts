/**
 * A Cedar hook through the real runner and the official engine: the request mapping, forbid/permit
 * to deny/allow with @reason, evaluation errors as failures (never an allow), the schema's closed
 * world, the decision cache, and every file problem refused at load with Cedar's own diagnostics,
 * file, line and column.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cedarTransport, HookRunner, isHookError, isPolicyError, JsonValue, type CedarOptions, type PolicyError } from '../../../host/index.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const POLICIES = `// Everything is allowed but what is forbidden below.
@id("allow-all")
permit (principal, action, resource);

@id("no-force-push")
@reason("git push --force is not allowed")
forbid (principal, action == Action::"shell", resource)
when { context.input has command && context.input.command like "*git push*--force*" };

@id("triage-mcp")
@reason("triage-bot may only use the GitHub issue tools")
forbid (principal == Agent::"triage-bot", action in Action::"mcp", resource)
unless { action in Action::"triage-tools" };

@id("no-secrets-out")
forbid (principal, action in Action::"post_tool_use", resource)
when { context has output && context.output like "*BEGIN PRIVATE KEY*" };
`;

const ENTITIES = JSON.stringify([
  { uid: { type: 'Action', id: 'mcp__github__get_issue' }, attrs: {}, parents: [{ type: 'Action', id: 'triage-tools' }] },
  { uid: { type: 'Agent', id: 'triage-bot' }, attrs: {}, parents: [] },
]);

async function cedarDir(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, files);
  return dir;
}

async function runnerFor(options: Partial<CedarOptions> & { files?: Record<string, string> } = {}, event: 'pre_tool_use' | 'post_tool_use' = 'pre_tool_use') {
  const dir = await cedarDir(options.files ?? { 'tools.cedar': POLICIES, 'entities.json': ENTITIES });
  const transport = cedarTransport({ policies: path.join(dir, 'tools.cedar'), entities: path.join(dir, 'entities.json'), ...options });
  await transport.load();
  return { dir, transport, runner: new HookRunner([{ name: 'cedar', event, transport }]) };
}

const call = (tool_name: string, input: unknown, agent_id = 'agent-1') => ({ workspace: '/repo', agent_id, tool_call_id: 'c1', tool_name, input: JSON.stringify(input) });

async function loadError(options: CedarOptions): Promise<PolicyError> {
  const error = await cedarTransport(options).load().then(() => undefined, (e: unknown) => e);
  if (!isHookError(error) || error.code !== 'load_failed' || !isPolicyError(error.cause)) throw new Error(`expected load_failed caused by a PolicyError, got ${String(error)}`);
  return error.cause;
}

describe('Cedar hook: decisions', () => {
  it('maps a call to a request: permit is allow, forbid is deny with its @reason', async () => {
    const { runner } = await runnerFor();
    expect(await runner.pre(call('shell', { command: 'ls -la' }))).toMatchObject({ decision: 'allow', modified: false });
    expect(await runner.pre(call('shell', { command: 'git push --force origin x' }))).toMatchObject({ decision: 'deny', reason: 'git push --force is not allowed' });
    // principal: Agent::"<agent_id>"; MCP tools are in Action::"mcp"; the entities file adds triage-tools.
    expect(await runner.pre(call('mcp__slack__post', {}, 'triage-bot'))).toMatchObject({ decision: 'deny', reason: 'triage-bot may only use the GitHub issue tools' });
    expect(await runner.pre(call('mcp__github__get_issue', { number: 1 }, 'triage-bot'))).toMatchObject({ decision: 'allow' });
    expect(await runner.pre(call('mcp__slack__post', {}, 'agent-1'))).toMatchObject({ decision: 'allow' });
  });

  it('no permit is a deny saying so; a forbid without @reason names its policy', async () => {
    const { runner } = await runnerFor({ files: { 'tools.cedar': 'permit (principal, action == Action::"read_file", resource);\nforbid (principal, action == Action::"read_file", resource) when { context.input.path like "*.env" };', 'entities.json': '[]' } });
    expect(await runner.pre(call('shell', { command: 'ls' }))).toMatchObject({ decision: 'deny', reason: 'no policy permits this call (tool "shell")' });
    expect(await runner.pre(call('read_file', { path: '.env' }))).toMatchObject({ decision: 'deny', reason: 'denied by policy "policy1"' });
  });

  it('after the call: the output, is_error and the post_tool_use action group', async () => {
    const { runner } = await runnerFor({}, 'post_tool_use');
    const post = { ...call('shell', { command: 'cat key.pem' }), output: '-----BEGIN PRIVATE KEY-----', is_error: false };
    expect(await runner.post(post)).toMatchObject({ decision: 'deny', output: 'denied by policy "no-secrets-out"', is_error: true });
    expect(await runner.post({ ...post, output: 'hello' })).toMatchObject({ decision: 'allow', replaced: false });
  });

  it('an evaluation error is a policy_error, never an allow; a forbid that matched still denies, the error in the trail', async () => {
    const { runner } = await runnerFor();
    // `has` on a string errors: the force-push forbid cannot tell, and Cedar would have skipped it.
    const raw = await runner.pre(call('shell', 'git push --force'));
    expect(raw.decision).toBe('deny');
    expect(raw.trail[0]?.failure?.code).toBe('policy_error');
    expect(raw.trail[0]?.failure?.message).toMatch(/policy "no-force-push" failed to evaluate: .*tools\.cedar:8:\d+: /);
    const both = await runnerFor({ files: { 'tools.cedar': 'forbid (principal, action, resource) when { context.input.a == 1 };\n@reason("always")\nforbid (principal, action, resource);\npermit (principal, action, resource);', 'entities.json': '[]' } });
    const denied = await both.runner.pre(call('x', { b: 1 }));
    expect(denied).toMatchObject({ decision: 'deny', reason: 'always' });
    expect(denied.trail[0]?.stderr).toMatch(/policy "policy0" failed to evaluate/);
  });

  it('any tool value is a valid context: floats, nulls, huge numbers and Cedar escape keys (property)', async () => {
    const { transport } = await runnerFor({ files: { 'tools.cedar': 'permit (principal, action, resource) when { context has event };', 'entities.json': '[]' } });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('__entity', '__extn', '__expr', 'k'), async (value, key) => {
        const input = { [key]: value, value } as JsonValue;
        const result = await transport.invoke({ hook_schema: 1, event: 'pre_tool_use', workspace: '/r', agent_id: 'a', tool_call_id: 'c', tool_name: 't', input }, { hook: 'cedar' });
        expect(result).toEqual({ ok: true, response: { decision: 'allow' } });
      }),
      { numRuns: 150 },
    );
  });

  it('explain names the determining and the erroring policies, with their lines', async () => {
    const { transport } = await runnerFor();
    const explained = await transport.explain({ hook_schema: 1, event: 'pre_tool_use', workspace: '/repo', agent_id: 'triage-bot', tool_call_id: 'c', tool_name: 'mcp__slack__post', input: {} });
    expect(explained.summary).toContain('deny: triage-bot may only use the GitHub issue tools');
    expect(explained.items).toEqual([expect.objectContaining({ id: 'triage-mcp', status: 'determining', effect: 'forbid', where: expect.stringMatching(/tools\.cedar:10:1$/) })]);
  });
});

describe('Cedar hook: the schema', () => {
  const SCHEMA = `entity Agent; entity Workspace;
action pre_tool_use, post_tool_use;
action "shell" in [pre_tool_use] appliesTo { principal: Agent, resource: Workspace, context: { input: { command: String }, event: String } };`;

  it('a tool it declares no action for is denied; a declared one is decided by the policies', async () => {
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action in Action::"pre_tool_use", resource) unless { context.input.command like "*rm -rf*" };', 'schema.cedarschema': SCHEMA });
    const transport = cedarTransport({ policies: path.join(dir, 'tools.cedar'), schema: path.join(dir, 'schema.cedarschema') });
    const chain = new HookRunner([{ name: 'cedar', event: 'pre_tool_use', transport }]);
    expect(await chain.pre(call('shell', { command: 'ls' }))).toMatchObject({ decision: 'allow' });
    expect(await chain.pre(call('shell', { command: 'rm -rf x' }))).toMatchObject({ decision: 'deny' });
    expect(await chain.pre(call('read_file', { path: 'x' }))).toMatchObject({ decision: 'deny', reason: 'no policy permits this call (tool "read_file": the schema declares no such action)' });
    // A context the schema does not allow (no command) is a request Cedar refuses: a failure.
    expect((await chain.pre(call('shell', { cmd: 'ls' }))).trail[0]?.failure?.code).toBe('policy_error');
  });

  it('a policy that does not validate against the schema is refused at load, with Cedar\'s diagnostic, file, line and column', async () => {
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action, resource);\n\nforbid (principal, action == Action::"shell", resource)\nwhen { context.input.commnd == "x" };', 'schema.cedarschema': SCHEMA });
    const error = await loadError({ policies: path.join(dir, 'tools.cedar'), schema: path.join(dir, 'schema.cedarschema') });
    expect(error.problem).toBe('validation');
    expect(error.location).toMatchObject({ file: path.join(dir, 'tools.cedar'), line: 4, column: 8 });
    expect(error.message).toContain('did you mean `command`?');
  });

  it('entities that do not conform to the schema are refused at load', async () => {
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action, resource);', 'schema.cedarschema': SCHEMA, 'entities.json': JSON.stringify([{ uid: { type: 'Robot', id: 'r' }, attrs: {}, parents: [] }]) });
    const error = await loadError({ policies: path.join(dir, 'tools.cedar'), schema: path.join(dir, 'schema.cedarschema'), entities: path.join(dir, 'entities.json') });
    expect(error.problem).toBe('validation');
    expect(error.message).toContain('Robot');
  });
});

describe('Cedar hook: refused at load', () => {
  it('a syntax error, with file, line and column', async () => {
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action, resource);\nforbid (principal, action, resource) when { context.x = 1 };' });
    const error = await loadError({ policies: path.join(dir, 'tools.cedar') });
    expect(error).toMatchObject({ code: 'policy_invalid', problem: 'syntax', location: { file: path.join(dir, 'tools.cedar'), line: 2 } });
    expect(error.message).toMatch(/tools\.cedar:2:\d+: /);
  });

  it('entities that are not JSON (with line and column), not an array, or not entities', async () => {
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action, resource);', 'a.json': '[\n  {"uid": }\n]', 'b.json': '{}', 'c.json': '[{"uid": {"type": "Agent"}}]' });
    const policies = path.join(dir, 'tools.cedar');
    expect((await loadError({ policies, entities: path.join(dir, 'a.json') })).location).toMatchObject({ line: 2, column: 11 });
    expect((await loadError({ policies, entities: path.join(dir, 'b.json') })).problem).toBe('syntax');
    expect((await loadError({ policies, entities: path.join(dir, 'c.json') })).problem).toBe('syntax');
  });

  it('a huge entities file, naming the limit', async () => {
    const entities = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ uid: { type: 'Agent', id: `agent-${i}` }, attrs: { team: `team-${i % 50}` }, parents: [] })));
    const dir = await cedarDir({ 'tools.cedar': 'permit (principal, action, resource);', 'entities.json': entities });
    const error = await loadError({ policies: path.join(dir, 'tools.cedar'), entities: path.join(dir, 'entities.json') });
    expect(error.problem).toBe('too_large');
    expect(error.message).toContain('the entities file is 1.6 MiB, over the 1 MiB limit (max_file_bytes)');
  });

  it('two policies with one @id, templates, and a file that is not there', async () => {
    const dir = await cedarDir({ 'dup.cedar': '@id("a")\npermit (principal, action, resource);\n@id("a")\nforbid (principal, action, resource);', 'tpl.cedar': 'permit (principal == ?principal, action, resource);' });
    expect(await loadError({ policies: path.join(dir, 'dup.cedar') })).toMatchObject({ problem: 'duplicate_id', location: { line: 3 } });
    expect((await loadError({ policies: path.join(dir, 'tpl.cedar') })).message).toContain('templates are not supported');
    expect((await loadError({ policies: path.join(dir, 'missing.cedar') })).problem).toBe('unreadable');
  });
});

describe('Cedar hook: the decision cache', () => {
  it('answers a repeated request from memory, bounded, only when asked for', async () => {
    const { transport, runner } = await runnerFor({ decision_cache: 2 });
    const force = call('shell', { command: 'git push --force' });
    const first = await runner.pre(force);
    const again = await runner.pre(force);
    expect(again).toEqual({ ...first, trail: [{ ...first.trail[0], ms: expect.any(Number) }] });
    // A different input is another key; the third distinct request evicts the oldest.
    expect(await runner.pre(call('shell', { command: 'ls' }))).toMatchObject({ decision: 'allow' });
    expect(await runner.pre(call('shell', { command: 'pwd' }))).toMatchObject({ decision: 'allow' });
    expect(await runner.pre(force)).toMatchObject({ decision: 'deny' });
    expect(transport.kind).toBe('cedar');
  });
});
