import type { HookCall } from '../../contract/call.js';
import type { HookEvent } from '../../contract/event.js';
import type { TestCase } from '../../cases/schema.js';
import { PRE_REASON } from './policy.js';

/*
 * The starters of the policy languages (`basis-hooks init --lang cedar|cel`): a hooks.json with one
 * hook, its policy, and cases that pass. The pre starter refuses `rm -rf /` as the code starters do;
 * a policy cannot rewrite, so the post starter withholds an output holding a private key rather than
 * redacting it. Both govern the `shell` tool (`"tools": ["shell"]`).
 */

/** Policy languages `init` knows besides the code languages. */
export const POLICY_LANGUAGES = ['cedar', 'cel'] as const;
export type PolicyLanguage = (typeof POLICY_LANGUAGES)[number];

/** The post starter's reason. */
export const KEY_REASON = 'the output holds a private key: it is withheld';

const CEDAR_SCHEMA = `// What the policies may talk about: checked when the hook loads.
entity Agent;
entity Workspace;
action pre_tool_use, post_tool_use;

// Every tool the hook decides on is an action here; the hook's "tools" selects only these.
action "shell" in [pre_tool_use, post_tool_use] appliesTo {
  principal: Agent,
  resource: Workspace,
  context: { input: { command: String }, output?: String, is_error?: Bool, event: String },
};
`;

function cedarPolicies(event: HookEvent): string {
  if (event === 'pre_tool_use') {
    return `// Everything is allowed but what a forbid below refuses (forbid overrides permit).
@id("allow")
permit (principal, action, resource);

// @reason is what the model is told when the policy denies.
@id("no-rm-rf-root")
@reason(${JSON.stringify(PRE_REASON)})
forbid (principal, action == Action::"shell", resource)
when {
  context.input.command like "*rm -rf /" ||
  context.input.command like "*rm -rf / *" ||
  context.input.command like "*rm -rf /\\**"
};
`;
  }
  return `// Everything is allowed but what a forbid below refuses (forbid overrides permit).
@id("allow")
permit (principal, action, resource);

// After the call: an output holding a private key never reaches the model.
@id("no-private-keys")
@reason(${JSON.stringify(KEY_REASON)})
forbid (principal, action == Action::"shell", resource)
when { context has output && context.output like "*PRIVATE KEY-----*" };
`;
}

function celRules(event: HookEvent): Array<{ when: string; decision: 'deny'; reason: string }> {
  return event === 'pre_tool_use'
    ? [{ when: "input.command.matches('rm -rf /($| |\\\\*)')", decision: 'deny', reason: PRE_REASON }]
    : [{ when: "type(output) == string && output.contains('PRIVATE KEY-----')", decision: 'deny', reason: KEY_REASON }];
}

function configText(lang: PolicyLanguage, event: HookEvent, name: string): string {
  const hook =
    lang === 'cedar'
      ? { name, event, tools: ['shell'], cedar: 'policies.cedar', entities: 'entities.json', schema: 'schema.cedarschema' }
      : { name, event, tools: ['shell'], cel: celRules(event) };
  return `${JSON.stringify({ hook_schema: 1, hooks: [hook] }, null, 2)}\n`;
}

const base = { workspace: '/repo', agent_id: 'agent-1', tool_name: 'shell' } as const;

function pre(id: string, command: string, tool_name = 'shell'): HookCall {
  return { event: 'pre_tool_use', ...base, tool_name, tool_call_id: id, input: { command } };
}

function post(id: string, output: string, tool_name = 'shell'): HookCall {
  return { event: 'post_tool_use', ...base, tool_name, tool_call_id: id, input: { command: 'cat key.pem' }, output, is_error: false };
}

/** The policy starters' cases: every one passes for the Cedar and the CEL starter (tested in test/kit). */
export function policyStarterCases(event: HookEvent): TestCase[] {
  if (event === 'pre_tool_use') {
    const deny = { decision: 'deny', reason: PRE_REASON } as const;
    return [
      { name: 'an ordinary command is allowed', call: pre('c1', 'ls -la'), expect: { decision: 'allow' } },
      { name: 'rm -rf of a subdirectory is allowed', call: pre('c2', 'rm -rf /tmp/build'), expect: { decision: 'allow' } },
      { name: 'rm -rf / is denied', call: pre('c3', 'rm -rf /'), expect: deny },
      { name: 'rm -rf /* is denied', call: pre('c4', 'sudo rm -rf /*'), expect: deny },
      { name: 'another tool is not this hook\'s', call: pre('c5', 'rm -rf /', 'run_script'), expect: { decision: 'allow' } },
    ];
  }
  return [
    { name: 'a plain output is allowed', call: post('c1', 'total 0\nREADME.md\n'), expect: { decision: 'allow' } },
    { name: 'a private key is withheld', call: post('c2', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n'), expect: { decision: 'deny', reason: KEY_REASON } },
    { name: 'another tool is not this hook\'s', call: post('c3', '-----BEGIN RSA PRIVATE KEY-----', 'read_file'), expect: { decision: 'allow' } },
  ];
}

function readme(lang: PolicyLanguage, event: HookEvent, name: string): string {
  const what =
    event === 'pre_tool_use'
      ? `Before the \`shell\` tool runs, it denies \`rm -rf /\` (the root itself, not \`/tmp/...\`) with the reason "${PRE_REASON}"; everything else is allowed.`
      : `After the \`shell\` tool ran, it denies (withholds) an output holding a private key, telling the model "${KEY_REASON}"; everything else is allowed.`;
  const files =
    lang === 'cedar'
      ? '- `hooks.json` — the hook: its event, its tools, and its three files;\n- `policies.cedar` — the policies (`permit`, `forbid`; `@reason` is what the model is told);\n- `schema.cedarschema` — what the policies may name: every policy must validate against it, and a tool it declares no action for is denied;\n- `entities.json` — agents, their groups and attributes (empty here);\n- `cases.jsonl` — what the hook must decide.'
      : '- `hooks.json` — the hook: its event, its tools and its rules (`when`, a CEL expression over `tool_name`, `input`, `output`, `is_error`, `agent_id`, `workspace`, `event`; the first true one decides; no match is allow);\n- `cases.jsonl` — what the hook must decide.';
  return `# ${name}

A ${lang === 'cedar' ? 'Cedar' : 'CEL'} policy hook for basis-hooks, at ${event}. ${what}

${files}

Policies are data: there is nothing to build.

\`\`\`sh
basis-hooks check --config hooks.json        # loads and validates the policy (file, line and column of any problem)
basis-hooks test .                           # runs cases.jsonl through the hook
echo '{"event":"${event}","workspace":"/repo","agent_id":"agent-1","tool_call_id":"c1","tool_name":"shell","input":{"command":"rm -rf /"}${event === 'post_tool_use' ? ',"output":"x","is_error":false' : ''}}' | basis-hooks explain --config hooks.json
\`\`\`

${lang === 'cedar' ? 'Cedar hooks need the engine: `npm install @cedar-policy/cedar-wasm`.' : 'CEL hooks need nothing more than basis-hooks.'}
`;
}

/** Every file of a policy starter, by path relative to its directory. */
export function policyStarterFiles(lang: PolicyLanguage, event: HookEvent, name: string): Record<string, string> {
  const cases = policyStarterCases(event)
    .map((c) => `${JSON.stringify(c)}\n`)
    .join('');
  const common = { 'hooks.json': configText(lang, event, name), 'cases.jsonl': cases, 'README.md': readme(lang, event, name) };
  if (lang === 'cel') return common;
  return { ...common, 'policies.cedar': cedarPolicies(event), 'schema.cedarschema': CEDAR_SCHEMA, 'entities.json': '[]\n' };
}
