/**
 * A Cedar hook decides each call with only the policies whose scope the call can meet (scope.ts):
 * the decision, the determining policies and the erroring ones are exactly those of the whole set —
 * checked against the engine deciding with the whole set, over random policy sets (every scope form:
 * `==`, `in` an entity or a list, `is … in`, with conditions that hold, fail or error) and random
 * calls, with and without a schema-free entity hierarchy.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cedarTransport, type HookRequest } from '../../../host/index.js';
import { loadCedarEngine } from '../../../host/transports/cedar/engine.js';
import { ActionEntities, actionOf, contextOf, principalOf, resourceOf } from '../../../host/transports/cedar/mapping.js';
import { hierarchyOf, PREPARSE_AFTER, scopeTest, Subsets } from '../../../host/transports/cedar/scope.js';
import { tempDir } from '../../helpers/temp.js';

const AGENTS = ['a1', 'a2', 'triage-bot'];
const TOOLS = ['shell', 'read_file', 'mcp__github__get_issue', 'mcp__slack__post'];
const WORKSPACES = ['/repo', '/other'];

const principal = fc.constantFrom('principal', 'principal == Agent::"a1"', 'principal == Agent::"triage-bot"', 'principal in Team::"ops"', 'principal is Agent', 'principal is Agent in Team::"ops"', 'principal is Team');
const action = fc.constantFrom('action', 'action == Action::"shell"', 'action in Action::"mcp"', 'action in Action::"mcp__github"', 'action in [Action::"read_file", Action::"shell"]', 'action in Action::"pre_tool_use"', 'action in Action::"triage-tools"');
const resource = fc.constantFrom('resource', 'resource == Workspace::"/repo"', 'resource in Org::"acme"', 'resource is Workspace');
const condition = fc.constantFrom('', ' when { context.input has command }', ' when { context.input.command like "*x*" }', ' unless { context.event == "post_tool_use" }', ' when { context.input.n > 1 }');
const policy = fc.tuple(fc.constantFrom('permit', 'forbid'), principal, action, resource, condition).map(([effect, p, a, r, c]) => `${effect} (${p}, ${a}, ${r})${c};`);

const ENTITIES = [
  { uid: { type: 'Agent', id: 'a1' }, attrs: {}, parents: [{ type: 'Team', id: 'ops' }] },
  { uid: { type: 'Team', id: 'ops' }, attrs: {}, parents: [] },
  { uid: { type: 'Workspace', id: '/repo' }, attrs: {}, parents: [{ type: 'Org', id: 'acme' }] },
  { uid: { type: 'Action', id: 'mcp__github__get_issue' }, attrs: {}, parents: [{ type: 'Action', id: 'triage-tools' }] },
];

describe('Cedar: deciding with the policies that can apply', () => {
  it('decides exactly as the whole set (property: random sets, random calls)', async () => {
    const engine = await loadCedarEngine();
    const dir = await tempDir();
    await writeFile(path.join(dir, 'entities.json'), JSON.stringify(ENTITIES));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(policy, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom(...AGENTS), fc.constantFrom(...TOOLS), fc.constantFrom(...WORKSPACES), fc.constantFrom<unknown>({ command: 'x y' }, { command: 'z' }, { n: 2 }, 'raw'), fc.constantFrom('pre_tool_use', 'post_tool_use')), { minLength: 1, maxLength: 6 }),
        async (policies, calls) => {
          const file = path.join(dir, `set-${run++}.cedar`);
          await writeFile(file, policies.join('\n'));
          const transport = cedarTransport({ policies: file, entities: path.join(dir, 'entities.json') });
          const info = await transport.load();
          const entities = new ActionEntities(ENTITIES);
          for (const [agent_id, tool_name, workspace, input, event] of calls) {
            const request: HookRequest =
              event === 'pre_tool_use'
                ? { hook_schema: 1, event, workspace, agent_id, tool_call_id: 'c', tool_name, input: input as never }
                : { hook_schema: 1, event, workspace, agent_id, tool_call_id: 'c', tool_name, input: input as never, output: 'o', is_error: false };
            const whole = engine.statefulIsAuthorized({
              principal: principalOf(request),
              action: actionOf(request),
              resource: resourceOf(request),
              context: contextOf(request),
              preparsedPolicySetId: info.preparsed_id,
              entities: entities.for(tool_name, event),
            }) as { response: { decision: string; diagnostics: { reason: string[]; errors: Array<{ policyId: string }> } } };
            // Often enough that the subset is preparsed and used (scope.ts: PREPARSE_AFTER).
            for (let i = 0; i < PREPARSE_AFTER; i++) await transport.invoke(request, { hook: 'cedar' });
            const explained = await transport.explain(request);
            const determining = explained.items.filter((i) => i.status === 'determining').map((i) => i.id).sort();
            const erroring = explained.items.filter((i) => i.status === 'error').map((i) => i.id).sort();
            expect({ decision: explained.summary.split(',')[0], determining, erroring }).toEqual({
              decision: `Cedar: ${whole.response.decision}`,
              determining: [...whole.response.diagnostics.reason].sort(),
              erroring: whole.response.diagnostics.errors.map((e) => e.policyId).sort(),
            });
          }
          await transport.close?.();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('uses the whole set until a subset has been wanted often enough, then its preparsed subset', async () => {
    const engine = await loadCedarEngine();
    const texts = { all: 'permit (principal, action, resource);', shell: 'forbid (principal, action == Action::"shell", resource);', ci: 'forbid (principal == Agent::"ci", action, resource);' };
    const policies = Object.entries(texts).map(([id, text]) => {
      const json = engine.policyToJson(text);
      if (json.type !== 'success') throw new Error(text);
      return { id, text, applies: scopeTest(json.json) };
    });
    expect(engine.preparsePolicySet('scope-test', { staticPolicies: texts }).type).toBe('success');
    const subsets = new Subsets(engine, 'scope-test', policies, hierarchyOf([], undefined));
    const ask = (agent: string, tool: string): string => subsets.idFor({ type: 'Agent', id: agent }, { type: 'Action', id: tool }, [{ type: 'Action', id: 'pre_tool_use' }], { type: 'Workspace', id: '/r' });
    const ids = Array.from({ length: PREPARSE_AFTER + 2 }, () => ask('a1', 'read_file'));
    expect(ids.slice(0, PREPARSE_AFTER - 1)).toEqual(Array(PREPARSE_AFTER - 1).fill('scope-test'));
    expect(ids.at(-1)).toMatch(/^scope-test\/[0-9a-f]{32}$/);
    // Every policy can apply to ci's shell calls: always the whole set.
    expect(Array.from({ length: PREPARSE_AFTER + 2 }, () => ask('ci', 'shell')).every((id) => id === 'scope-test')).toBe(true);
  });
});
