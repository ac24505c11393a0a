/**
 * The entities a request is decided with: only those its evaluation can reach. Cedar builds its
 * entity store — hierarchy closure included — from whatever a call hands it, on every call (measured
 * here: 100 entities add ~3 ms to a decision, 4,500 add ~280 ms). A policy can only read an entity by
 * starting from the request's principal, action or resource, or from an entity it names itself
 * (`Team::"ops"`), and following parents and entity-valued attributes and tags; so the entities
 * reachable that way decide exactly as the whole file does. They are found once per tool, event,
 * agent and workspace, and remembered.
 *
 * Over-approximations only (an extra entity changes nothing): any object with a string `type` and
 * `id` in an attribute counts as a reference. A policy text whose entity literals cannot be read
 * surely turns slicing off for the hook (every call gets the whole file).
 */
import type { HookEvent } from '../../contract/event.js';
import type { CedarEntity, CedarUid } from './engine.js';
import { actionGroups } from './mapping.js';

const key = (type: string, id: string): string => `${type}\u0000${id}`;

/** Every entity reference in an attribute value (over-approximated: any `{type, id}` or `{__entity}`). */
function references(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) references(item, out);
    return;
  }
  const record = value as Record<string, unknown>;
  const escaped = record['__entity'];
  const uid = (escaped !== null && typeof escaped === 'object' ? escaped : record) as { type?: unknown; id?: unknown };
  if (typeof uid.type === 'string' && typeof uid.id === 'string') out.push(key(uid.type, uid.id));
  for (const member of Object.values(record)) references(member, out);
}

/** `A::B::"id"` literals of a policy text (ids with `\"` or `\\` escapes decoded; any other escape: unreadable). */
const LITERAL = /((?:[A-Za-z_][A-Za-z0-9_]*::)+)"((?:[^"\\]|\\.)*)"/g;

function literals(text: string): string[] | undefined {
  const out: string[] = [];
  for (const match of text.matchAll(LITERAL)) {
    const type = (match[1] ?? '').slice(0, -2);
    const raw = match[2] ?? '';
    if (/\\[^"\\]/.test(raw)) return undefined;
    out.push(key(type, raw.replace(/\\(["\\])/g, '$1')));
  }
  return out;
}

/** How many requests' entity lists one hook remembers. */
export const MAX_SLICES = 4096;

/** The entities each request is decided with (see the module's comment). */
export class EntitySlices {
  readonly #all: readonly CedarEntity[];
  readonly #byKey = new Map<string, CedarEntity>();
  readonly #edges = new Map<string, string[]>();
  /** Entities the policies name, with what they reach: in every slice. Undefined: slicing is off. */
  readonly #named: ReadonlySet<string> | undefined;
  readonly #cache = new Map<string, readonly CedarEntity[]>();

  /**
   * `schema`: with one, the engine makes the action entities itself and none is added here; without,
   * the request's action entity is added with its groups (see mapping.ts), merged with the file's.
   */
  constructor(
    entities: readonly CedarEntity[],
    policyTexts: readonly string[],
    private readonly schema: boolean,
  ) {
    this.#all = entities;
    for (const entity of entities) {
      const k = key(entity.uid.type, entity.uid.id);
      this.#byKey.set(k, entity);
      const out: string[] = [];
      for (const parent of entity.parents) references(parent, out);
      references(entity.attrs, out);
      references(entity.tags, out);
      this.#edges.set(k, out);
    }
    const named: string[] = [];
    for (const text of policyTexts) {
      const found = literals(text);
      if (found === undefined) {
        this.#named = undefined;
        return;
      }
      named.push(...found);
    }
    this.#named = this.#reach(named);
  }

  /** `roots` with everything they reach through parents and references. */
  #reach(roots: readonly string[], into = new Set<string>()): Set<string> {
    const queue = [...roots];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (into.has(next)) continue;
      into.add(next);
      queue.push(...(this.#edges.get(next) ?? []));
    }
    return into;
  }

  /** The entities to decide a request of this principal, tool, event and resource with. */
  for(principal: CedarUid, toolName: string, event: HookEvent, resource: CedarUid): readonly CedarEntity[] {
    const cacheKey = `${event}\u0000${toolName}\u0000${principal.id}\u0000${resource.id}`;
    let slice = this.#cache.get(cacheKey);
    if (slice !== undefined) return slice;
    const actionKey = key('Action', toolName);
    const groups = this.schema ? [] : actionGroups(toolName, event);
    const declared = this.#byKey.get(actionKey);
    if (this.#named === undefined) {
      slice = this.schema ? this.#all : [...this.#all.filter((entity) => entity !== declared), this.#action(toolName, groups, declared)];
    } else {
      const reached = this.#reach([key(principal.type, principal.id), key(resource.type, resource.id), actionKey, ...groups.map((g) => key(g.type, g.id))], new Set(this.#named));
      const entities: CedarEntity[] = [];
      for (const k of reached) {
        const entity = this.#byKey.get(k);
        if (entity !== undefined && !(k === actionKey && !this.schema)) entities.push(entity);
      }
      if (!this.schema) entities.push(this.#action(toolName, groups, declared));
      slice = entities;
    }
    if (this.#cache.size >= MAX_SLICES) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(cacheKey, slice);
    return slice;
  }

  /** The request's action entity without a schema: the mapping's groups, and the file's own parents and attributes for it. */
  #action(toolName: string, groups: readonly CedarUid[], declared: CedarEntity | undefined): CedarEntity {
    return { uid: { type: 'Action', id: toolName }, attrs: declared?.attrs ?? {}, parents: [...groups, ...(declared?.parents ?? [])] };
  }

  /** Whether slicing is on (the policies' entity literals could be read). */
  get slicing(): boolean {
    return this.#named !== undefined;
  }
}
