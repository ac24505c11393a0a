/**
 * The engine keeps every preparsed policy set for the life of the process and cannot drop one, but
 * preparsing under an id it holds replaces (and frees) what it held: the pool (preparsed.ts) reuses the
 * id of a set no live hook holds for the next new content. So a host that reloads changed policies
 * keeps as many sets in the engine as it has hooks alive at once, not one per version.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cedarTransport, HookRunner } from '../../../host/index.js';
import { loadCedarEngine } from '../../../host/transports/cedar/engine.js';
import { PreparsedPool, preparsedSets } from '../../../host/transports/cedar/preparsed.js';
import { tempDir } from '../../helpers/temp.js';

const engine = await loadCedarEngine();
const request = (id: string) => ({ principal: { type: 'Agent', id: 'a' }, action: { type: 'Action', id: 'shell' }, resource: { type: 'Workspace', id: '/w' }, context: {}, preparsedPolicySetId: id, entities: [] });
const decision = (id: string): unknown => (engine.statefulIsAuthorized(request(id)) as { response?: { decision?: unknown } }).response?.decision;
const preparse = (text: string) => (id: string) => engine.preparsePolicySet(id, { staticPolicies: { p0: text } }).type !== 'failure';

describe('Cedar preparsed sets are reclaimed', () => {
  it('a set no one holds gives its engine id to the next content, which the engine then decides with', () => {
    const pool = new PreparsedPool('preparsed-test:');
    const permit = 'permit (principal, action, resource);';
    const forbid = 'forbid (principal, action, resource);';
    const a = pool.acquire('permit', preparse(permit));
    expect(a).toBeDefined();
    // Same content: shared, not preparsed again.
    expect(pool.acquire('permit', () => {
      throw new Error('preparsed twice');
    })).toBe(a);
    expect(decision(a as string)).toBe('allow');
    pool.release('permit');
    expect(pool.stats()).toEqual({ held: 1, slots: 1 });
    pool.release('permit');
    const b = pool.acquire('forbid', preparse(forbid));
    expect(b).toBe(a);
    expect(pool.stats()).toEqual({ held: 1, slots: 1 });
    expect(decision(b as string)).toBe('deny');
    // A set the engine refuses holds nothing and takes no id.
    expect(pool.acquire('broken', preparse('permit (principal'))).toBeUndefined();
    expect(pool.stats()).toEqual({ held: 1, slots: 1 });
  });

  it('a host reloading changed policies keeps the engine at the sets its live hooks hold (hooks garbage-collected)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const dir = await tempDir();
    const file = path.join(dir, 'p.cedar');
    const call = { workspace: '/w', agent_id: 'a', tool_call_id: 'c', tool_name: 'shell', input: '{}' };
    const reload = async (version: number): Promise<unknown> => {
      await writeFile(file, `@id("v${version}")\n@reason("version ${version}")\nforbid (principal, action == Action::"shell", resource);\npermit (principal, action, resource);\n`);
      const runner = new HookRunner([{ name: 'cedar', event: 'pre_tool_use', transport: cedarTransport({ policies: file }) }]);
      const outcome = await runner.pre(call);
      return outcome.decision === 'deny' ? outcome.reason : outcome.decision;
    };
    // The suite's workers share modules between files: the pool may hold other files' sets already.
    const before = preparsedSets.stats();
    for (let version = 0; version < 40; version++) {
      // Each config's hook decides with its own version, never an older one an id was reused from.
      expect(await reload(version)).toBe(`version ${version}`);
      if (version % 5 === 4) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // 40 versions; without reclaiming, 40 sets. A few remain between collections.
    expect(preparsedSets.stats().slots - before.slots).toBeLessThanOrEqual(10);
    expect(preparsedSets.stats().held - before.held).toBeLessThanOrEqual(5);
  });
});
