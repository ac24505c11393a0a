/**
 * Deciding a call with only the policies that can apply to it. A Cedar policy's scope — its principal,
 * action and resource constraints (`==`, `in`, `is`) — can only be true or false, never an error, and a
 * policy whose scope is false for a request is neither satisfied nor erroring: leaving it out changes
 * neither the decision nor the determining and erroring policies. Cedar evaluates every policy of the
 * set on every call (~3.5 µs each here), so a hook hands it, per call, the preparsed subset whose
 * scopes the request can meet: for a set of forbids each about one tool or agent, a fraction of it.
 *
 * The subset depends on the request's principal, action and resource with their ancestors (from the
 * entities file, the action groups of the mapping or the schema's action groups), so it is found once
 * per tool, event, agent and workspace and remembered; each distinct subset is preparsed once, after
 * it has been wanted {@link PREPARSE_AFTER} times (the whole set decides until then). A scope this file
 * does not understand counts as "can apply" (the policy stays in).
 */
import { createHash } from 'node:crypto';
import type { Preparse } from './preparsed.js';
import type { CedarEngine, CedarEntity, CedarUid } from './engine.js';

type UidJson = CedarUid | { readonly __entity: CedarUid };

/** A policy's scope, as `policyToJson` gives it (the parts read here). */
export interface ScopeJson {
  readonly principal?: unknown;
  readonly action?: unknown;
  readonly resource?: unknown;
}

/** One side of a request, for a scope's test: the entity, its type and itself with its ancestors. */
interface Side {
  readonly self: string;
  readonly type: string;
  readonly within: ReadonlySet<string>;
}

type Test = (side: Side) => boolean;

function uidKey(uid: unknown): string | undefined {
  const plain = (uid as { __entity?: unknown } | null)?.__entity ?? uid;
  const { type, id } = (plain ?? {}) as { type?: unknown; id?: unknown };
  return typeof type === 'string' && typeof id === 'string' ? `${type}\u0000${id}` : undefined;
}

const ALWAYS: Test = () => true;

/** A constraint as a test; an unknown shape: always (the policy stays in). */
function constraintTest(constraint: unknown): Test {
  const c = (constraint ?? {}) as { op?: unknown; entity?: UidJson; entities?: readonly UidJson[]; entity_type?: unknown; in?: { entity?: UidJson } };
  switch (c.op) {
    case 'All':
      return ALWAYS;
    case '==': {
      const key = uidKey(c.entity);
      return key === undefined ? ALWAYS : (side) => side.self === key;
    }
    case 'in': {
      const keys = (c.entities ?? (c.entity === undefined ? [] : [c.entity])).map(uidKey);
      if (keys.length === 0 || keys.some((k) => k === undefined)) return ALWAYS;
      return (side) => keys.some((k) => side.within.has(k as string));
    }
    case 'is': {
      if (typeof c.entity_type !== 'string') return ALWAYS;
      const type = c.entity_type;
      const within = c.in?.entity === undefined ? undefined : uidKey(c.in.entity);
      if (c.in !== undefined && within === undefined) return ALWAYS;
      return (side) => side.type === type && (within === undefined || side.within.has(within));
    }
    default:
      return ALWAYS;
  }
}

/** A policy's whole scope as one test of a request's three sides. */
export function scopeTest(scope: ScopeJson): (principal: Side, action: Side, resource: Side) => boolean {
  const principal = constraintTest(scope.principal);
  const action = constraintTest(scope.action);
  const resource = constraintTest(scope.resource);
  return (p, a, r) => principal(p) && action(a) && resource(r);
}

/** Parents by entity, for ancestors: the entities file's, and the actions' (the mapping's or the schema's). */
export class Hierarchy {
  readonly #parents = new Map<string, string[]>();

  add(child: CedarUid, parents: readonly unknown[]): void {
    const key = `${child.type}\u0000${child.id}`;
    const list = this.#parents.get(key) ?? [];
    for (const parent of parents) {
      const parentKey = uidKey(parent);
      if (parentKey !== undefined && !list.includes(parentKey)) list.push(parentKey);
    }
    this.#parents.set(key, list);
  }

  /** `uid` with its ancestors (transitively), plus `extra` parents of its own (the request's action's groups). */
  side(uid: CedarUid, extra: readonly CedarUid[] = []): Side {
    const self = `${uid.type}\u0000${uid.id}`;
    const within = new Set<string>([self]);
    const queue = [...(this.#parents.get(self) ?? []), ...extra.map((p) => `${p.type}\u0000${p.id}`)];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (within.has(next)) continue;
      within.add(next);
      queue.push(...(this.#parents.get(next) ?? []));
    }
    return { self, type: uid.type, within };
  }
}

/** The entities file's hierarchy, and the schema's action groups when there is a schema. */
export function hierarchyOf(entities: readonly CedarEntity[], schemaActions: Readonly<Record<string, { readonly memberOf?: readonly { readonly id: string; readonly type?: string }[] }>> | undefined): Hierarchy {
  const hierarchy = new Hierarchy();
  for (const entity of entities) hierarchy.add(entity.uid, entity.parents);
  for (const [id, action] of Object.entries(schemaActions ?? {})) {
    hierarchy.add({ type: 'Action', id }, (action.memberOf ?? []).map((parent) => ({ type: parent.type ?? 'Action', id: parent.id })));
  }
  return hierarchy;
}

/** How many distinct subsets one hook preparses at most (the engine keeps each for the process); past it, the whole set. */
export const MAX_SUBSETS = 256;
/**
 * A subset is preparsed once this many calls would have used it (each before that is decided with
 * the whole set): preparsing costs about what a few hundred decisions of it save, so a rare request
 * never pays for it, and no call waits for a preparse the moment a new tool appears.
 */
export const PREPARSE_AFTER = 8;
/** How many requests' subsets one hook remembers (tool, event, agent, workspace). */
export const MAX_REMEMBERED = 4096;

/**
 * The preparsed subset to decide a request with: found from the policies' scopes, remembered per
 * tool, event, agent and workspace, each distinct subset preparsed once (by its content, like the
 * whole set).
 */
export class Subsets {
  /** Per request (tool, groups, agent, workspace): the ids of the policies that can apply, joined. */
  readonly #byRequest = new Map<string, string>();
  /** Per subset (its policy ids, joined): its preparsed id once preparsed, else how often it was wanted. */
  readonly #byPolicies = new Map<string, string | number>();
  #preparsedCount = 0;

  constructor(
    private readonly engine: CedarEngine,
    private readonly setId: string,
    private readonly policies: ReadonlyArray<{ readonly id: string; readonly text: string; readonly applies: (p: Side, a: Side, r: Side) => boolean }>,
    private readonly hierarchy: Hierarchy,
    /**
     * Where a subset is preparsed, and the whole set's content digest (a subset's is made from it): by
     * default straight into the engine, named by content; a hook passes its pool holds (preparsed.ts),
     * so a subset is freed with the hook.
     */
    private readonly pool: { readonly content: string; acquire(content: string, preparse: Preparse): string | undefined } = {
      content: setId,
      acquire: (content, preparse) => (preparse(content) ? content : undefined),
    },
  ) {}

  /** The preparsed set id for this request's principal, action (and its groups) and resource. */
  idFor(principal: CedarUid, action: CedarUid, actionGroups: readonly CedarUid[], resource: CedarUid): string {
    const key = `${action.id}\u0000${actionGroups.map((g) => g.id).join(',')}\u0000${principal.id}\u0000${resource.id}`;
    let ids = this.#byRequest.get(key);
    if (ids === undefined) {
      const p = this.hierarchy.side(principal);
      const a = this.hierarchy.side(action, actionGroups);
      const r = this.hierarchy.side(resource);
      const applicable = this.policies.filter((policy) => policy.applies(p, a, r));
      ids = applicable.length === this.policies.length ? '' : applicable.map((policy) => policy.id).join('\u0001');
      if (this.#byRequest.size >= MAX_REMEMBERED) this.#byRequest.delete(this.#byRequest.keys().next().value as string);
      this.#byRequest.set(key, ids);
    }
    return ids === '' ? this.setId : this.#subset(ids);
  }

  /** The preparsed subset of these policies, once it has been wanted often enough; the whole set until then. */
  #subset(ids: string): string {
    const known = this.#byPolicies.get(ids) ?? 0;
    if (typeof known === 'string') return known;
    if (known + 1 < PREPARSE_AFTER || this.#preparsedCount >= MAX_SUBSETS) {
      this.#byPolicies.set(ids, known + 1);
      return this.setId;
    }
    // Named by content, like the whole set: two hooks of the same files share it, never clash.
    const content = `${this.pool.content}/${createHash('sha256').update(ids).digest('hex').slice(0, 32)}`;
    const wanted = new Set(ids.split('\u0001'));
    const staticPolicies = Object.fromEntries(this.policies.filter((p) => wanted.has(p.id)).map((p) => [p.id, p.text]));
    const id = this.pool.acquire(content, (slot) => this.engine.preparsePolicySet(slot, { staticPolicies }).type !== 'failure');
    if (id === undefined) return this.setId;
    this.#preparsedCount++;
    this.#byPolicies.set(ids, id);
    return id;
  }
}
