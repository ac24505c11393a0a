/**
 * A Cedar hook hands the engine, per call, only the entities the call can reach (slice.ts): the
 * principal's, the resource's and the action's, the entities the policies name, and what they reach
 * through parents and entity-valued attributes. The decision, the determining and the erroring
 * policies are exactly those of the whole entities file — checked against the engine given the whole
 * file, over random entity graphs and policies that read attributes, follow references and test
 * membership.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cedarTransport, type HookRequest } from '../../../host/index.js';
import { loadCedarEngine } from '../../../host/transports/cedar/engine.js';
import { ActionEntities, actionOf, contextOf, principalOf, resourceOf } from '../../../host/transports/cedar/mapping.js';
import { tempDir } from '../../helpers/temp.js';

const AGENTS = ['a1', 'a2', 'a3'];
const TEAMS = ['t1', 't2', 't3'];
const WORKSPACES = ['/w1', '/w2'];

const ref = (type: string, id: string, escaped: boolean): unknown => (escaped ? { __entity: { type, id } } : { type, id });
const entities = fc
  .tuple(
    fc.array(fc.tuple(fc.subarray(TEAMS), fc.option(fc.constantFrom(...AGENTS), { nil: undefined }), fc.integer({ min: 0, max: 5 }), fc.boolean()), { minLength: 3, maxLength: 3 }),
    fc.array(fc.tuple(fc.subarray(TEAMS), fc.boolean()), { minLength: 3, maxLength: 3 }),
    fc.array(fc.constantFrom(...AGENTS), { minLength: 2, maxLength: 2 }),
  )
  .map(([agents, teams, owners]) => [
    ...agents.map(([parents, manager, level, escaped], i) => ({
      uid: { type: 'Agent', id: AGENTS[i] as string },
      attrs: { level, ...(manager === undefined ? {} : { manager: ref('Agent', manager, escaped) }) },
      parents: parents.map((id) => ({ type: 'Team', id })),
    })),
    // Teams are in later teams only: Cedar refuses a hierarchy with a cycle (at load).
    ...teams.map(([parents, open], i) => ({ uid: { type: 'Team', id: TEAMS[i] as string }, attrs: { open }, parents: parents.filter((id) => TEAMS.indexOf(id) > i).map((id) => ({ type: 'Team', id })) })),
    ...owners.map((owner, i) => ({ uid: { type: 'Workspace', id: WORKSPACES[i] as string }, attrs: { owner: ref('Agent', owner, false) }, parents: [] })),
  ]);
const condition = fc.constantFrom(
  'principal.level > 2',
  'principal has manager && principal.manager.level > 1',
  'principal.manager in Team::"t3"',
  'resource.owner == principal',
  'principal in Team::"t1"',
  'Team::"t2".open',
  'resource.owner.level < principal.level',
  'principal in resource.owner.manager',
);
const policy = fc.tuple(fc.constantFrom('permit', 'forbid'), fc.constantFrom('principal', 'principal in Team::"t2"'), condition).map(([effect, scope, c]) => `${effect} (${scope}, action, resource) when { ${c} };`);

describe('Cedar: deciding with the entities a call can reach', () => {
  it('decides exactly as with the whole entities file (property)', async () => {
    const engine = await loadCedarEngine();
    const dir = await tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(entities, fc.array(policy, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.constantFrom(...AGENTS, 'unknown'), fc.constantFrom(...WORKSPACES)), { minLength: 1, maxLength: 4 }), async (file, policies, calls) => {
        const n = run++;
        await writeFile(path.join(dir, `p${n}.cedar`), policies.join('\n'));
        await writeFile(path.join(dir, `e${n}.json`), JSON.stringify(file));
        const transport = cedarTransport({ policies: path.join(dir, `p${n}.cedar`), entities: path.join(dir, `e${n}.json`) });
        const info = await transport.load();
        const whole = new ActionEntities(file);
        for (const [agent_id, workspace] of calls) {
          const request: HookRequest = { hook_schema: 1, event: 'pre_tool_use', workspace, agent_id, tool_call_id: 'c', tool_name: 'shell', input: {} };
          const answer = engine.statefulIsAuthorized({
            principal: principalOf(request),
            action: actionOf(request),
            resource: resourceOf(request),
            context: contextOf(request),
            preparsedPolicySetId: info.preparsed_id,
            entities: whole.for('shell', 'pre_tool_use'),
          }) as { response: { decision: string; diagnostics: { reason: string[]; errors: Array<{ policyId: string }> } } };
          const explained = await transport.explain(request);
          expect({
            decision: explained.summary.split(',')[0],
            determining: explained.items.filter((i) => i.status === 'determining').map((i) => i.id).sort(),
            erroring: explained.items.filter((i) => i.status === 'error').map((i) => i.id).sort(),
          }).toEqual({
            decision: `Cedar: ${answer.response.decision}`,
            determining: [...answer.response.diagnostics.reason].sort(),
            erroring: answer.response.diagnostics.errors.map((e) => e.policyId).sort(),
          });
        }
        await transport.close?.();
      }),
      { numRuns: 60 },
    );
  });
});
