import type { HookRequest } from '../../contract/request.js';
import type { CedarEntity, CedarUid } from './engine.js';
import { toCedarValue } from './value.js';

/**
 * How a request becomes a Cedar authorization request (docs/policies.md has this as a table):
 *
 * - principal `Agent::"<agent_id>"`, resource `Workspace::"<workspace>"`;
 * - action `Action::"<tool_name>"`, a member of the action group of its event
 *   (`Action::"pre_tool_use"` / `Action::"post_tool_use"`), and an MCP tool (`mcp__<server>__<tool>`)
 *   also of `Action::"mcp"` and `Action::"mcp__<server>"` — unless the hook has a schema, whose
 *   action declarations (and groups) are then the only ones;
 * - context `{ input, event }`, and after the call `output` and `is_error` too (values as
 *   {@link toCedarValue} maps them).
 */
export function principalOf(request: HookRequest): CedarUid {
  return { type: 'Agent', id: request.agent_id };
}

export function resourceOf(request: HookRequest): CedarUid {
  return { type: 'Workspace', id: request.workspace };
}

export function actionOf(request: HookRequest): CedarUid {
  return { type: 'Action', id: request.tool_name };
}

export function contextOf(request: HookRequest): Record<string, unknown> {
  const context: Record<string, unknown> = { event: request.event };
  const input = toCedarValue(request.input);
  if (input !== undefined) context['input'] = input;
  if (request.event === 'post_tool_use') {
    const output = toCedarValue(request.output);
    if (output !== undefined) context['output'] = output;
    context['is_error'] = request.is_error;
  }
  return context;
}

const MCP = /^mcp__(.+?)__./s;

/** The groups an action is a member of without a schema: its event's, and an MCP tool's server's. */
export function actionGroups(toolName: string, event: HookRequest['event']): CedarUid[] {
  const groups: CedarUid[] = [{ type: 'Action', id: event }];
  const server = MCP.exec(toolName)?.[1];
  if (server !== undefined) groups.push({ type: 'Action', id: 'mcp' }, { type: 'Action', id: `mcp__${server}` });
  return groups;
}

/**
 * The whole entities file as a request without a schema sees it: the hook's own entities, with the
 * request's action entity added — its groups as {@link actionGroups} says, plus any parents the
 * entities file gives that action. A hook hands Cedar only the part a call can reach (slice.ts); this
 * is the whole it is held to (its tests decide with both). Kept per tool and event.
 */
export class ActionEntities {
  readonly #base: readonly CedarEntity[];
  /** Actions the entities file defines, by id: their parents are merged, the file's entry replaced. */
  readonly #declared = new Map<string, CedarEntity>();
  readonly #cache = new Map<string, readonly CedarEntity[]>();
  static readonly CACHE_SIZE = 512;

  constructor(entities: readonly CedarEntity[]) {
    for (const entity of entities) if (entity.uid.type === 'Action') this.#declared.set(entity.uid.id, entity);
    this.#base = entities.filter((entity) => !(entity.uid.type === 'Action' && this.#declared.get(entity.uid.id) === entity));
  }

  for(toolName: string, event: HookRequest['event']): readonly CedarEntity[] {
    const key = `${event}\u0000${toolName}`;
    let entities = this.#cache.get(key);
    if (entities === undefined) {
      const declared = this.#declared.get(toolName);
      const parents = [...actionGroups(toolName, event), ...(declared?.parents ?? [])];
      const action: CedarEntity = { uid: { type: 'Action', id: toolName }, attrs: declared?.attrs ?? {}, parents };
      // Every other action the file defines stays, as written.
      const others = [...this.#declared.values()].filter((entity) => entity !== declared);
      entities = [...this.#base, ...others, action];
      if (this.#cache.size >= ActionEntities.CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
      this.#cache.set(key, entities);
    }
    return entities;
  }
}
