import { describe, expect, it } from 'vitest';
import type { HookConfig } from '../../../host/config/schema.js';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardCommand, matcherFor, settingsFor, shellQuote, timeoutFor } from '../../../host/integrations/claude-code/settings.js';
import { withheld } from '../../../host/integrations/claude-code/answer.js';

const hook = (tools: HookConfig['tools'] | undefined, extra: Partial<HookConfig> = {}): HookConfig =>
  ({ name: `h${Math.random()}`, event: 'pre_tool_use', on_failure: 'deny', command: 'true', ...(tools === undefined ? {} : { tools }), ...extra }) as HookConfig;

describe('Claude Code matchers from the hooks\' tools', () => {
  it('exact names joined with |', () => {
    expect(matcherFor([hook(['Bash']), hook(['Edit', 'Write', 'Bash'])])).toBe('Bash|Edit|Write');
  });
  it('a glob makes one anchored regex; regex characters in names are escaped', () => {
    expect(matcherFor([hook(['Bash']), hook(['mcp__github__*'])])).toBe('^(Bash|mcp__github__.*)$');
    expect(matcherFor([hook(['a.b', 'c*'])])).toBe('^(a\\.b|c.*)$');
    expect(new RegExp(matcherFor([hook(['mcp__*__read'])]) ?? '').test('mcp__fs__read')).toBe(true);
  });
  it('a {regex} entry is passed on as Claude Code reads it: a name list anchored with the names, a regex as an alternative', () => {
    const matcher = matcherFor([hook(['Bash']), hook([{ regex: 'Edit|Write' }]), hook([{ regex: 'mcp__github__.*' }])]) ?? '';
    expect(matcher).toBe('^(Bash|Edit|Write)$|(?:mcp__github__.*)');
    const re = new RegExp(matcher);
    for (const tool of ['Bash', 'Edit', 'Write', 'mcp__github__create_issue']) expect(re.test(tool), tool).toBe(true);
    for (const tool of ['MultiEdit', 'BashOutput', 'TodoWrite', 'mcp__gitlab__x']) expect(re.test(tool), tool).toBe(false);
    expect(matcherFor([hook([{ regex: '*' }])])).toBe('*');
  });
  it('a hook without tools matches every tool: "*"', () => {
    expect(matcherFor([hook(['Bash']), hook(undefined)])).toBe('*');
  });
  it('no hook, or only empty tool lists: nothing to wire', () => {
    expect(matcherFor([])).toBeUndefined();
    expect(matcherFor([hook([])])).toBeUndefined();
  });
});

describe('settings', () => {
  it('one group per event; post hooks also get PostToolUseFailure; an event without hooks is left out', () => {
    const settings = settingsFor({ hook_schema: 1, hooks: [hook(['Bash'], { event: 'post_tool_use' })] }, { type: 'http', url: 'http://127.0.0.1:1/' });
    expect(Object.keys(settings.hooks)).toEqual(['PostToolUse', 'PostToolUseFailure']);
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'http', url: 'http://127.0.0.1:1/', timeout: 42 }, { type: 'command', command: guardCommand('http://127.0.0.1:1/', 'PostToolUse'), timeout: 10 }] }]);
  });
  it('an http hook carries its headers (the bearer token) and is paired with a fail-closed guard unless asked not to be', () => {
    const config = { hook_schema: 1 as const, hooks: [hook(['Bash'])] };
    const settings = settingsFor(config, { type: 'http', url: 'http://127.0.0.1:9/', headers: { Authorization: 'Bearer t' } });
    expect(settings.hooks.PreToolUse?.[0]?.hooks).toEqual([
      { type: 'http', url: 'http://127.0.0.1:9/', timeout: 42, headers: { Authorization: 'Bearer t' } },
      { type: 'command', command: guardCommand('http://127.0.0.1:9/', 'PreToolUse'), timeout: 10 },
    ]);
    expect(settingsFor(config, { type: 'http', url: 'http://127.0.0.1:9/', guard: false }).hooks.PreToolUse?.[0]?.hooks).toHaveLength(1);
  });
  it('the timeout covers every hook at the event running to its deadline, plus start-up', () => {
    expect(timeoutFor([])).toBe(30);
    expect(timeoutFor([hook(undefined, { timeout_ms: 2000 } as Partial<HookConfig>)])).toBe(34); // 30 + 2 + 1.5 kill grace
    expect(timeoutFor([{ name: 'c', event: 'pre_tool_use', on_failure: 'deny', component: 'x.wasm' }])).toBe(31);
  });
  it('commands are quoted for the shell Claude Code runs them with', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote("/my dir/it's.json")).toBe(`'/my dir/it'\\''s.json'`);
  });
});

describe('a withheld output in the tool\'s shape', () => {
  it('Bash: stdout emptied, the reason as stderr, other fields kept', () => {
    expect(withheld('Bash', { stdout: 'secret', stderr: '', interrupted: false, isImage: false }, 'no')).toEqual({ stdout: '', stderr: 'no', interrupted: false, isImage: false });
  });
  it('MCP tools: one text block, as an array or inside {content}; a string stays a string', () => {
    expect(withheld('mcp__x__y', [{ type: 'text', text: 's' }], 'no')).toEqual([{ type: 'text', text: 'no' }]);
    expect(withheld('mcp__x__y', { content: [] }, 'no')).toEqual({ content: [{ type: 'text', text: 'no' }] });
    expect(withheld('mcp__x__y', 's', 'no')).toBe('no');
  });
  it('other tools: the reason', () => {
    expect(withheld('Read', { file: { content: 's' } }, 'no')).toBe('no');
  });
});

describe('the guard command beside an http hook', () => {
  const sh = (command: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string }> =>
    new Promise((resolve) => {
      execFile('/bin/sh', ['-c', command], { env }, (error, stdout) => resolve({ code: error === null ? 0 : Number((error as { code?: unknown }).code), stdout }));
    });

  it('server down: it prints the event\'s deny (PreToolUse) or block (after the call), exit 0 — even with no curl on PATH', async () => {
    const down = 'http://127.0.0.1:9/';
    const pre = await sh(guardCommand(down, 'PreToolUse'));
    expect(pre.code).toBe(0);
    expect(JSON.parse(pre.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('does not answer') as unknown } });
    const post = await sh(guardCommand(down, 'PostToolUse'));
    expect(JSON.parse(post.stdout)).toMatchObject({ decision: 'block' });
    const noCurl = await sh(guardCommand(down, 'PreToolUse'), { PATH: '/nonexistent' });
    expect(JSON.parse(noCurl.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('server up: it prints nothing (no objection: the http hook decides)', async () => {
    const server = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      expect(await sh(guardCommand(url, 'PreToolUse'))).toEqual({ code: 0, stdout: '' });
    } finally {
      server.close();
    }
  });
});
