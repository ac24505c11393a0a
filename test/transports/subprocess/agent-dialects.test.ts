import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner, parseConfig, type HookRunner } from '../../../host/index.js';
import { ROOT } from '../../helpers/guests.js';

/*
 * `dialect: "<agent>"`: hook scripts written for an agent CLI run unchanged inside a basis chain. The
 * script here is agents/hooks/demo-hook.mjs, written to probe the six real CLIs and verified against
 * them (agents/README.md); Cursor, Windsurf and Kiro hooks are small scripts answering as their docs say.
 */

const DEMO = path.join(ROOT, 'agents', 'hooks', 'demo-hook.mjs');
const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

async function chain(dialect: string, command: readonly string[] | string, event: 'pre_tool_use' | 'post_tool_use' = 'pre_tool_use'): Promise<HookRunner> {
  const runner = await createRunner(parseConfig({ hook_schema: 1, hooks: [{ name: `${dialect}-hook`, event, dialect, command }] }, path.join(ROOT, 'hooks.json')));
  runners.push(runner);
  return runner;
}
const pre = (command: string, tool = 'Bash') => ({ event: 'pre_tool_use' as const, workspace: '/tmp', agent_id: 'a', tool_call_id: 'c1', tool_name: tool, input: { command, description: 'd' } });
const post = (output: string) => ({ event: 'post_tool_use' as const, workspace: '/tmp', agent_id: 'a', tool_call_id: 'c2', tool_name: 'Bash', input: { command: 'echo hi' }, output, is_error: false });

describe('the demo hook of agents/ (written for the real CLIs), in each of their dialects', () => {
  for (const dialect of ['claude-code', 'codex', 'gemini', 'copilot', 'qwen', 'cline']) {
    it(`${dialect}: its deny blocks, a harmless call passes, its rewrite is a modify`, async () => {
      const denying = await chain(dialect, ['node', DEMO, 'deny']);
      const denied = await denying.run(pre('rm -rf ./victim'));
      expect(denied.decision, JSON.stringify(denied.trail)).toBe('deny');
      expect(denied.trail[0]?.failure).toBeUndefined();
      expect((await denying.run(pre('echo hello'))).decision).toBe('allow');
      const rewriting = await chain(dialect, ['node', DEMO, 'rewrite']);
      const rewritten = await rewriting.run(pre('rm -rf ./victim'));
      expect(rewritten, JSON.stringify(rewritten)).toMatchObject({ decision: 'allow', modified: true });
      expect(JSON.stringify(rewritten.event === 'pre_tool_use' && rewritten.decision === 'allow' ? rewritten.input : null)).toContain('blocked-by-hook');
    });
  }

  it('exit 2 blocks with stderr as the reason where the agent reads it so; Cline ignores exit 2 (so a failure here, denied under on_failure)', async () => {
    for (const dialect of ['claude-code', 'codex', 'gemini', 'copilot', 'qwen']) {
      const outcome = await (await chain(dialect, ['node', DEMO, 'exit2'])).run(pre('rm -rf ./victim'));
      expect(outcome.decision, dialect).toBe('deny');
      expect(outcome.trail[0]?.failure, dialect).toBeUndefined();
    }
    const cline = await (await chain('cline', ['node', DEMO, 'exit2'])).run(pre('rm -rf ./victim'));
    expect(cline.trail[0]?.failure?.code).toBe('exit_nonzero');
  });

  it('post-call replacements: Claude updatedToolOutput, Copilot modifiedResult are replaces; Gemini\'s AfterTool deny and Codex\'s block are denies (the reason in place of the output); Codex ignores updatedToolOutput', async () => {
    const claude = await (await chain('claude-code', ['node', DEMO, 'post-replace'], 'post_tool_use')).run(post('secret'));
    expect(claude).toMatchObject({ decision: 'allow', replaced: true });
    const copilot = await (await chain('copilot', ['node', DEMO, 'post-replace'], 'post_tool_use')).run(post('secret'));
    expect(copilot).toMatchObject({ decision: 'allow', replaced: true, output: 'REDACTED-BY-HOOK' });
    const gemini = await (await chain('gemini', ['node', DEMO, 'post-replace'], 'post_tool_use')).run(post('secret'));
    expect(gemini.decision).toBe('deny');
    expect(JSON.stringify(gemini)).toContain('REDACTED-BY-HOOK');
    // The demo hook answers Codex with updatedToolOutput, which Codex ignores (verified): so does this.
    expect((await (await chain('codex', ['node', DEMO, 'post-replace'], 'post_tool_use')).run(post('secret'))).decision).toBe('allow');
    const codex = await (await chain('codex', `cat >/dev/null; echo '{"decision":"block","reason":"REDACTED-BY-HOOK"}'`, 'post_tool_use')).run(post('secret'));
    expect(codex).toMatchObject({ decision: 'deny', output: 'REDACTED-BY-HOOK' });
  });

  it('Codex: an allow without updatedInput is what Codex calls a failed hook — a failure here, never a silent allow', async () => {
    const outcome = await (await chain('codex', `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`)).run(pre('ls'));
    expect(outcome.trail[0]?.failure?.code).toBe('malformed_response');
    expect(outcome.decision).toBe('deny');
  });
});

describe('Cursor, Windsurf and Kiro hooks as their docs describe them', () => {
  it('Cursor: permission deny blocks, updated_input rewrites, ask is denied', async () => {
    expect((await (await chain('cursor', `cat >/dev/null; echo '{"permission":"deny","agent_message":"no"}'`)).run(pre('rm -rf /'))).decision).toBe('deny');
    const rewrite = await (await chain('cursor', `cat >/dev/null; echo '{"permission":"allow","updated_input":{"command":"ls"}}'`)).run(pre('rm -rf /'));
    expect(rewrite).toMatchObject({ decision: 'allow', modified: true, input: { command: 'ls' } });
    expect((await (await chain('cursor', `cat >/dev/null; echo '{"permission":"ask"}'`)).run(pre('x'))).decision).toBe('deny');
  });

  it('Windsurf and Kiro: exit 2 blocks with the reason; exit 0 allows; the event they read is theirs', async () => {
    const stdinOf = (dialect: string): Promise<string> =>
      chain(dialect, `cat >&2; exit 2`).then(async (r) => (await r.run(pre('rm -rf /'))).trail[0]?.reason ?? '');
    expect(await stdinOf('windsurf')).toContain('"agent_action_name":"pre_run_command"');
    expect(await stdinOf('kiro')).toContain('"hook_event_name":"preToolUse"');
    expect((await (await chain('kiro', 'cat >/dev/null; exit 0')).run(pre('ls'))).decision).toBe('allow');
    // Kiro cannot block after the call: exit 2 there is not a deny.
    expect((await (await chain('kiro', 'cat >/dev/null; exit 2', 'post_tool_use')).run(post('x'))).decision).toBe('allow');
  });
});
