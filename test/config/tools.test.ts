import { describe, expect, it } from 'vitest';
import { createRunner, hooksJsonSchema, parseConfig } from '../../host/config/index.js';
import { ConfigError } from '../../host/errors/config-error.js';
import { RunnerError } from '../../host/errors/runner-error.js';
import { HookRunner } from '../../host/runner/runner.js';
import { compileToolMatcher, TOOL_GLOB_PATTERN, toolPatternProblem, type ToolPattern } from '../../host/runner/matcher.js';
import { interceptorTransport } from '../../host/transports/in-process/index.js';

const FILE = '/etc/agent/hooks.json';

/** Strings a user may write in `tools`, and whether each is a name/glob we accept. */
const STRINGS: ReadonlyArray<readonly [string, boolean]> = [
  ['shell', true],
  ['Bash', true],
  ['mcp__github__create_issue', true],
  ['mcp__github__*', true],
  ['*', true],
  ['read_*_file', true],
  ['my.tool', true], // MCP tool names may contain dots
  ['server-name__tool', true],
  ['Bash(rm:*)', false],
  ['Bash(git push:*)', false],
  ['mcp__github__.*', false],
  ['Edit|Write', false],
  ['^Bash$', false],
  ['Notebook.+', false],
  ['tool?', false],
  ['[ab]', false],
  ['a\\b', false],
  ['x{2}', false],
  [' shell', false],
  ['', false],
];

function configError(tools: unknown): ConfigError {
  try {
    parseConfig({ hook_schema: 1, hooks: [{ name: 'guard', event: 'pre_tool_use', tools, command: ['true'] }] }, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

function runnerError(tools: readonly ToolPattern[]): RunnerError {
  try {
    new HookRunner([{ name: 'guard', event: 'pre_tool_use', tools, transport: interceptorTransport(() => ({ decision: 'allow' })) }]);
  } catch (error) {
    expect(error).toBeInstanceOf(RunnerError);
    return error as RunnerError;
  }
  throw new Error('expected a RunnerError');
}

const call = (tool_name: string) => ({ workspace: '/repo', agent_id: 'a1', tool_call_id: 'c1', tool_name, input: '{}' });

describe('tools: what an entry may be', () => {
  it.each(STRINGS)('%j accepted: %s — by the runner rule, the config schema and the JSON Schema pattern alike', (pattern, ok) => {
    expect(toolPatternProblem(pattern) === undefined).toBe(ok);
    const parsed = (() => {
      try {
        parseConfig({ hook_schema: 1, hooks: [{ name: 'g', event: 'pre_tool_use', tools: [pattern], command: ['true'] }] }, FILE);
        return true;
      } catch {
        return false;
      }
    })();
    expect(parsed).toBe(ok);
    expect(new RegExp(TOOL_GLOB_PATTERN).test(pattern)).toBe(ok);
  });

  it('the JSON Schema carries the same pattern and refuses an empty list', () => {
    const text = JSON.stringify(hooksJsonSchema());
    expect(text).toContain(JSON.stringify(TOOL_GLOB_PATTERN));
    expect(text).toContain('"minItems":1');
  });

  it('a config error names the pattern, says what it probably meant and lists the accepted forms', () => {
    const error = configError(['shell', 'Bash(rm:*)', 'mcp__github__.*', 'Edit|Write']);
    expect(error.code).toBe('config_invalid');
    expect(error.issues.map((i) => i.path)).toEqual(['hooks[0].tools[1]', 'hooks[0].tools[2]', 'hooks[0].tools[3]']);
    const [rule, regex, alternatives] = error.issues;
    expect(rule?.message).toContain('"Bash(rm:*)"');
    expect(rule?.message).toContain('"Bash"'); // select the tool itself
    expect(regex?.message).toContain('"mcp__github__*"');
    expect(regex?.message).toContain('{"regex":"mcp__github__.*"}');
    expect(alternatives?.message).toContain('["Edit","Write"]');
    for (const issue of error.issues) expect(issue.message).toContain('{"regex": "<Claude Code matcher or JavaScript regex>"}');
    expect(error.message).toContain(FILE);
  });

  it('an empty list is a config error at the list', () => {
    const error = configError([]);
    expect(error.issues).toEqual([{ path: 'hooks[0].tools', message: expect.stringContaining('never run') as unknown }]);
  });

  it('an invalid or malformed regex entry is a config error naming it', () => {
    const error = configError([{ regex: '(a' }, { regex: ' ' }, { regex: 'x', flags: 'i' }, 3]);
    expect(error.issues.map((i) => i.path)).toEqual(['hooks[0].tools[0]', 'hooks[0].tools[1]', 'hooks[0].tools[2]', 'hooks[0].tools[3]']);
    expect(error.issues[0]?.message).toContain('"(a"');
    expect(error.issues[2]?.message).toContain('"flags"');
  });

  it('the same mistakes are a RunnerError (invalid_hooks) from new HookRunner, naming the hook and the pattern', () => {
    for (const tools of [['Bash(rm:*)'], ['mcp__github__.*'], [], [{ regex: '(' }]] as const) {
      const error = runnerError(tools);
      expect(error.code).toBe('invalid_hooks');
      expect(error.message).toContain('hooks[0] "guard"');
      if (tools.length > 0) expect(error.message).toContain(JSON.stringify(tools[0]));
    }
    expect(() => compileToolMatcher([])).toThrow(RunnerError);
  });
});

describe('tools: what an entry matches', () => {
  it('names and globs match the whole tool name', () => {
    const matches = compileToolMatcher(['shell', 'mcp__github__*']);
    expect(['shell', 'mcp__github__create_issue', 'mcp__github__'].map(matches)).toEqual([true, true, true]);
    expect(['shell2', 'my_shell', 'mcp__gitlab__x', 'x_mcp__github__y'].map(matches)).toEqual([false, false, false, false]);
  });

  it('{"regex"} is evaluated as Claude Code evaluates a matcher, so settings.json matchers select the same tools', () => {
    const tools = ['Bash', 'BashOutput', 'Edit', 'MultiEdit', 'Write', 'TodoWrite', 'NotebookEdit', 'mcp__github__create_issue', 'mcp__gitlab__x'];
    const selected = (regex: string): string[] => tools.filter(compileToolMatcher([{ regex }]));
    // Names joined by | (or ,) are a list of exact names: no substring matches.
    expect(selected('Bash')).toEqual(['Bash']);
    expect(selected('Edit|Write')).toEqual(['Edit', 'Write']);
    expect(selected('Edit, Write')).toEqual(['Edit', 'Write']);
    // Anything else is a JavaScript regex searched in the name, unanchored.
    expect(selected('mcp__github__.*')).toEqual(['mcp__github__create_issue']);
    expect(selected('^Bash')).toEqual(['Bash', 'BashOutput']);
    expect(selected('Edit$')).toEqual(['Edit', 'MultiEdit', 'NotebookEdit']);
    expect(selected('^(Edit|Write)$')).toEqual(['Edit', 'Write']);
    expect(selected('*')).toEqual(tools);
  });

  it('a Claude Code matcher carried over as {"regex"} runs its hook (the config and the chain agree)', async () => {
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [{ name: 'gh', event: 'pre_tool_use', tools: [{ regex: 'mcp__github__.*' }], command: ['sh', '-c', 'cat >/dev/null; echo \'{"decision":"deny","reason":"no github"}\''] }],
      },
      FILE,
    );
    const runner = await createRunner(config);
    try {
      const denied = await runner.pre(call('mcp__github__delete_repo'));
      expect(denied).toMatchObject({ decision: 'deny', reason: 'no github' });
      const other = await runner.pre(call('shell'));
      expect(other).toMatchObject({ decision: 'allow', trail: [] });
    } finally {
      await runner.close();
    }
  });
});
