import type { HookCall } from '../../contract/call.js';
import type { HookEvent } from '../../contract/event.js';
import type { TestCase } from '../../cases/schema.js';
import { POST_MARKER, POST_PREFIX, PRE_REASON, postReason } from './policy.js';

const base = { workspace: '/repo', agent_id: 'agent-1', tool_name: 'shell' } as const;

function pre(id: string, input: HookCall['input']): HookCall {
  return { event: 'pre_tool_use', ...base, tool_call_id: id, input };
}

function post(id: string, output: HookCall['input'], input: HookCall['input'] = { command: 'cat .env' }): HookCall {
  return { event: 'post_tool_use', ...base, tool_call_id: id, input, output, is_error: false };
}

/** A token the post starter redacts: the prefix and exactly 36 letters and digits. */
const TOKEN = `${POST_PREFIX}0123456789abcdefghijABCDEFGHIJ012345`;
const TOKEN2 = `${POST_PREFIX}ZYXWVUTSRQzyxwvutsrq98765432109876ab`;

/** The starter's cases: every one passes for the starter of any language (tested in test/kit). */
export function starterCases(event: HookEvent): TestCase[] {
  if (event === 'pre_tool_use') {
    const deny = { decision: 'deny', reason: PRE_REASON } as const;
    return [
      { name: 'an ordinary command is allowed', call: pre('c1', { command: 'ls -la' }), expect: { decision: 'allow' } },
      { name: 'rm -rf of a subdirectory is allowed', call: pre('c2', { command: 'rm -rf /tmp/build' }), expect: { decision: 'allow' } },
      { name: 'rm -rf / is denied', call: pre('c3', { command: 'rm -rf /' }), expect: deny },
      { name: 'rm -rf /* is denied', call: pre('c4', { command: 'sudo rm -rf /*' }), expect: deny },
      { name: 'raw-string input is checked too', call: pre('c5', 'rm -rf / --no-preserve-root'), expect: deny },
      { name: 'post_tool_use calls are let through', call: post('c6', '', { command: 'rm -rf /' }), expect: { decision: 'allow' } },
    ];
  }
  return [
    { name: 'clean output is allowed', call: post('c1', 'total 0\nREADME.md\n'), expect: { decision: 'allow' } },
    {
      name: 'a token in text output is redacted',
      call: post('c2', `GITHUB_TOKEN=${TOKEN}\n`),
      expect: { decision: 'replace', output: `GITHUB_TOKEN=${POST_MARKER}\n`, reason: postReason(1) },
    },
    {
      name: 'tokens in structured output are redacted',
      call: post('c3', { token: TOKEN, note: `also ${TOKEN2} here` }),
      expect: { decision: 'replace', output: { token: POST_MARKER, note: `also ${POST_MARKER} here` }, reason: postReason(2) },
    },
    { name: 'a short ghp_ prefix is left alone', call: post('c4', `${POST_PREFIX}short`), expect: { decision: 'allow' } },
    { name: 'pre_tool_use calls are let through', call: pre('c5', { command: `echo ${TOKEN}` }), expect: { decision: 'allow' } },
  ];
}

/** The cases as the `cases.jsonl` text `init` writes: one JSON object per line. */
export function starterCasesText(event: HookEvent): string {
  return starterCases(event)
    .map((c) => `${JSON.stringify(c)}\n`)
    .join('');
}
