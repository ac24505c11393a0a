/**
 * The workspace policy (examples/policies/README.md) as a WebAssembly component: JavaScript on
 * QuickJS, built with `basis-hooks build examples/policies/component` (or `npm run build-guests -- js`).
 * It reads and answers the wire contract's shapes; the same decisions as the Cedar and CEL versions
 * on examples/policies/cases.jsonl.
 */

const TRIAGE_TOOLS = ['mcp__github__get_issue', 'mcp__github__list_issues', 'mcp__github__add_issue_comment'];
const FORCE_PUSH = /git push[\s\S]*(--force| -f)( |$)/;
const RM_OUTSIDE = [/rm -(rf|fr) ([\s\S]* )?[/~]/, /rm -(rf|fr) [\s\S]*\.\./];

const deny = (reason) => ({ decision: 'deny', reason });

export function handle(request) {
  if (request.event !== 'pre_tool_use') return { decision: 'allow' };
  const { tool_name: tool, agent_id: agent, input } = request;
  if (tool === 'shell') {
    const command = input !== null && typeof input === 'object' && !Array.isArray(input) ? input.command : undefined;
    if (typeof command !== 'string') return deny('a shell call\'s input must be {"command": "<string>"}');
    if (FORCE_PUSH.test(command)) return deny('git push --force is not allowed');
    if (RM_OUTSIDE.some((pattern) => pattern.test(command))) return deny('rm -rf outside the workspace is not allowed');
  }
  if (agent === 'triage-bot' && tool.startsWith('mcp__') && !TRIAGE_TOOLS.includes(tool)) return deny('triage-bot may only use the GitHub issue tools');
  return { decision: 'allow' };
}
