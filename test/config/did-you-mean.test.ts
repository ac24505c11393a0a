import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/index.js';
import { closest } from '../../host/config/suggest.js';
import { ConfigError } from '../../host/errors/config-error.js';

const FILE = '/etc/agent/hooks.json';

function issues(value: unknown): ConfigError['issues'] {
  try {
    parseConfig(value, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('config_invalid');
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

function messageAt(list: ConfigError['issues'], path: string): string {
  const issue = list.find((i) => i.path === path);
  if (issue === undefined) throw new Error(`no issue at ${path}: ${JSON.stringify(list)}`);
  return issue.message;
}

describe('unknown config keys: did you mean', () => {
  it('suggests the key a typo was meant to be, at every level of the file', () => {
    const list = issues({
      hook_schema: 1,
      hoks: [],
      hooks: [
        { name: 'a', event: 'pre_tool_use', command: ['true'], timout_ms: 5 },
        { name: 'b', event: 'post_tool_use', component: 'x.wasm', memroy_mb: 8, grants: { env_alow: ['HOME'] } },
        { name: 'c', event: 'pre_tool_use', comand: ['true'], onFailure: 'deny' },
      ],
    });
    expect(messageAt(list, 'hoks')).toContain('"hooks"');
    expect(messageAt(list, 'hooks[0].timout_ms')).toContain('did you mean "timeout_ms"?');
    expect(messageAt(list, 'hooks[1].memroy_mb')).toContain('"memory_mb"');
    expect(messageAt(list, 'hooks[1].grants.env_alow')).toContain('"env_allow"');
    expect(messageAt(list, 'hooks[2].comand')).toContain('"command"');
    expect(messageAt(list, 'hooks[2].onFailure')).toContain('"on_failure"');
  });

  it('lists the allowed keys when nothing is close', () => {
    const list = issues({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', command: ['true'], zzz: 1 }] });
    const message = messageAt(list, 'hooks[0].zzz');
    for (const key of ['timeout_ms', 'max_output_bytes', 'env', 'tools']) expect(message).toContain(key);
  });

  it('still says when a key belongs to the other kind of hook', () => {
    const list = issues({ hook_schema: 1, hooks: [{ name: 'a', event: 'pre_tool_use', command: ['true'], memory_mb: 8 }] });
    expect(messageAt(list, 'hooks[0].memory_mb')).toContain('component hooks');
  });
});

describe('closest', () => {
  it('finds typos, case and separator variants, and nothing for unrelated words', () => {
    const keys = ['timeout_ms', 'memory_mb', 'max_output_bytes', 'on_failure', 'tools', 'event'];
    expect(closest('timout_ms', keys)).toBe('timeout_ms');
    expect(closest('timeoutMs', keys)).toBe('timeout_ms');
    expect(closest('on-failure', keys)).toBe('on_failure');
    expect(closest('tool', keys)).toBe('tools');
    expect(closest('evnet', keys)).toBe('event');
    expect(closest('pyhton3', ['python3', 'python3.11', 'perl'])).toBe('python3');
    expect(closest('zzz', keys)).toBeUndefined();
    expect(closest('grants', keys)).toBeUndefined();
  });
});
