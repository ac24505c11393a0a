import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../host/errors/config-error.js';
import { HooksConfig, parseConfig } from '../../host/config/index.js';

const FILE = '/etc/agent/hooks.json';

/** The example of docs/config.md: one hook of each transport. */
const EXAMPLE = {
  $schema: './node_modules/basis-hooks/schema/hooks.schema.json',
  hook_schema: 1,
  hooks: [
    { name: 'no-force-push', event: 'pre_tool_use', tools: ['shell'], command: ['node', 'hooks/no-force-push.mjs'], timeout_ms: 2000, on_failure: 'deny' },
    {
      name: 'redact',
      event: 'post_tool_use',
      component: 'hooks/redact.wasm',
      timeout_ms: 1000,
      memory_mb: 64,
      max_output_bytes: 1048576,
      grants: { env: { MODE: 'strict' }, env_allow: ['HOME'], read_only_dirs: { '/data': './data' } },
    },
  ],
};

function hook(extra: Record<string, unknown>): Record<string, unknown> {
  return { name: 'h', event: 'pre_tool_use', command: ['true'], ...extra };
}

/** Parse and return the ConfigError it must throw. */
function invalid(value: unknown): ConfigError {
  try {
    parseConfig(value, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected parseConfig to throw');
}

function issueAt(error: ConfigError, path: string): { path: string; message: string } {
  const issue = error.issues.find((i) => i.path === path);
  if (issue === undefined) throw new Error(`no issue at ${path}: ${JSON.stringify(error.issues)}`);
  return issue;
}

describe('parseConfig: valid configs', () => {
  it('parses the example with one hook of each transport', () => {
    const config = parseConfig(EXAMPLE, FILE);
    expect(config.hooks.map((h) => h.name)).toEqual(['no-force-push', 'redact']);
    expect(config.hooks[0]).toMatchObject({ event: 'pre_tool_use', tools: ['shell'], timeout_ms: 2000, on_failure: 'deny' });
    expect(config.hooks[1]).toMatchObject({ event: 'post_tool_use', memory_mb: 64, grants: { env: { MODE: 'strict' }, env_allow: ['HOME'] } });
  });

  it('defaults on_failure to deny and accepts the sh -c string form, globs and an empty hook list', () => {
    const config = parseConfig({ hook_schema: 1, hooks: [hook({ command: 'echo "{\\"decision\\":\\"allow\\"}"', tools: ['mcp__*'] })] }, FILE);
    expect(config.hooks[0]).toMatchObject({ on_failure: 'deny', command: 'echo "{\\"decision\\":\\"allow\\"}"', tools: ['mcp__*'] });
    expect(parseConfig({ hook_schema: 1, hooks: [] }, FILE).hooks).toEqual([]);
  });

  it('the exported schema is usable on its own (throwing and safe forms)', () => {
    expect(HooksConfig.safeParse(EXAMPLE).success).toBe(true);
    expect(() => HooksConfig.parse({ hook_schema: 1, hooks: [hook({ memory_mb: 1 })] })).toThrow();
  });
});

describe('parseConfig: every error names the file, the JSON path, the key and the value', () => {
  it('refuses another hook_schema version and says which are supported', () => {
    const error = invalid({ ...EXAMPLE, hook_schema: 2 });
    expect(error.code).toBe('config_invalid');
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(FILE);
    const issue = issueAt(error, 'hook_schema');
    expect(issue.message).toContain('2');
    expect(issue.message).toContain('supported: 1');
    expect(issueAt(invalid({ hooks: [] }), 'hook_schema').message).toContain('required');
  });

  it('refuses an unknown event, naming the value and the events there are', () => {
    const error = invalid({ hook_schema: 1, hooks: [hook({ event: 'pre_tool' })] });
    expect(error.issues).toEqual([{ path: 'hooks[0].event', message: '"pre_tool" is not one of pre_tool_use, post_tool_use' }]);
  });

  it('requires exactly one of command or component', () => {
    const neither = invalid({ hook_schema: 1, hooks: [hook({}), { name: 'x', event: 'pre_tool_use' }] });
    expect(neither.issues).toEqual([{ path: 'hooks[1]', message: 'exactly one of "command", "component", "cedar" or "cel" is required (found none)' }]);
    const both = invalid({ hook_schema: 1, hooks: [hook({ component: 'x.wasm' })] });
    expect(issueAt(both, 'hooks[0]').message).toContain('found "command" and "component"');
  });

  it('refuses a key of the other transport, naming the transport it was read as', () => {
    const error = invalid({
      hook_schema: 1,
      hooks: [hook({ name: 'a' }), hook({ name: 'b' }), hook({ name: 'c', memory_mb: 64 }), { name: 'd', event: 'post_tool_use', component: 'x.wasm', env: {} }],
    });
    expect(issueAt(error, 'hooks[2].memory_mb').message).toContain('unknown key for a command hook');
    expect(issueAt(error, 'hooks[3].env').message).toContain('unknown key for a component hook');
    expect(error.issues).toHaveLength(2);
  });

  it('refuses unknown keys at every level instead of ignoring them', () => {
    const error = invalid({
      hook_schema: 1,
      version: 3,
      hooks: [
        hook({ timeout: 5 }),
        { name: 'c', event: 'post_tool_use', component: 'x.wasm', grants: { network: true } },
        { name: 'n', event: 'pre_tool_use', retries: 1 },
        // Names of Object.prototype members are not keys of any schema either.
        hook({ name: 'p', toString: 'x' }),
      ],
    });
    expect(issueAt(error, 'hooks[3].toString').message).toContain('unknown key');
    expect(issueAt(error, 'version').message).toContain('unknown key');
    expect(issueAt(error, 'hooks[0].timeout').message).toContain('unknown key for a command hook');
    expect(issueAt(error, 'hooks[1].grants.network').message).toContain('unknown key');
    // Neither transport key: still told about a key that no hook kind has.
    expect(issueAt(error, 'hooks[2].retries').message).toContain('unknown key');
    expect(issueAt(error, 'hooks[2]').message).toContain('found none');
  });

  it('reports duplicate names with both indexes', () => {
    const error = invalid({ hook_schema: 1, hooks: [hook({ name: 'guard' }), hook({ name: 'other' }), hook({ name: 'guard' })] });
    const issue = issueAt(error, 'hooks[2].name');
    expect(issue.message).toContain('"guard"');
    expect(issue.message).toContain('hooks[0]');
  });

  it('accepts only positive integers for limits', () => {
    const error = invalid({
      hook_schema: 1,
      hooks: [
        hook({ name: 'a', timeout_ms: 0 }),
        hook({ name: 'b', max_output_bytes: 1.5 }),
        hook({ name: 'c', max_stderr_bytes: -1 }),
        { name: 'd', event: 'pre_tool_use', component: 'x.wasm', memory_mb: '64' },
      ],
    });
    expect(issueAt(error, 'hooks[0].timeout_ms').message).toContain('0');
    expect(issueAt(error, 'hooks[1].max_output_bytes').message).toContain('1.5');
    expect(issueAt(error, 'hooks[2].max_stderr_bytes').message).toContain('-1');
    expect(issueAt(error, 'hooks[3].memory_mb').message).toContain('"64"');
  });

  it('refuses empty or mistyped commands, names, tools and env values', () => {
    const error = invalid({
      hook_schema: 1,
      hooks: [
        hook({ name: 'a', command: [] }),
        hook({ name: 'b', command: '' }),
        hook({ name: 'c', command: 42 }),
        hook({ name: '' }),
        hook({ name: 'e', tools: 'shell' }),
        hook({ name: 'f', env: { A: 1 } }),
        hook({ name: 'g', on_failure: 'ignore' }),
      ],
    });
    expect(issueAt(error, 'hooks[0].command').message).toContain('[]');
    expect(issueAt(error, 'hooks[1].command').message).toContain('""');
    expect(issueAt(error, 'hooks[2].command').message).toContain('42');
    expect(issueAt(error, 'hooks[3].name').message).toContain('""');
    expect(issueAt(error, 'hooks[4].tools').message).toContain('"shell"');
    expect(issueAt(error, 'hooks[5].env.A').message).toContain('1');
    expect(issueAt(error, 'hooks[6].on_failure').message).toContain('"ignore"');
  });

  it('refuses a relative guest path in read_only_dirs', () => {
    const error = invalid({ hook_schema: 1, hooks: [{ name: 'c', event: 'pre_tool_use', component: 'x.wasm', grants: { read_only_dirs: { data: '.' } } }] });
    expect(issueAt(error, 'hooks[0].grants.read_only_dirs.data').message).toContain('"data"');
  });

  it('reports every problem in one error, not just the first', () => {
    const error = invalid({
      hook_schema: 7,
      hooks: [hook({ event: 'pre_tool' }), { name: 'x', event: 'pre_tool_use' }, hook({ name: 'c', memory_mb: 1 }), 'not a hook'],
    });
    expect(error.issues.map((i) => i.path)).toEqual(['hook_schema', 'hooks[0].event', 'hooks[1]', 'hooks[2].memory_mb', 'hooks[3]']);
    for (const issue of error.issues) expect(error.message).toContain(`${issue.path}: ${issue.message}`);
  });

  it('refuses a value that is not an object', () => {
    const error = invalid([]);
    expect(error.code).toBe('config_invalid');
    expect(error.issues[0]?.message).toContain('array');
  });
});
