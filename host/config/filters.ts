import type { HookRequest } from '../contract/request.js';
import type { HookFailure } from '../contract/failure.js';
import { compileToolMatcher, type CallFilter, type ToolPattern } from '../runner/matcher.js';
import type { HookConfig } from './schema.js';

type CelModule = typeof import('../transports/cel/index.js');

/** Both filters, in turn: the first that does not say `true` has the last word. */
function both(first: CallFilter, second: CallFilter): CallFilter {
  return {
    source: `(${first.source}) && (${second.source})`,
    test: (request: HookRequest): boolean | HookFailure => {
      const verdict = first.test(request);
      return verdict === true ? second.test(request) : verdict;
    },
  };
}

/**
 * What a config hook's `tools` and `when` become for the runner: its plain `tools` entries (names,
 * globs, `{regex}`) as the runner's tool matcher, and its CEL — the `when`, and `{"cel": …}` entries
 * of `tools` — compiled into one {@link CallFilter} asked at the hook's turn. A list with CEL entries
 * matches a tool when any entry does, so the plain entries then join the filter too (the runner sees
 * no `tools`: the filter decides). The CEL engine is loaded only for a hook that has CEL.
 *
 * The runner itself knows no CEL: it asks a `CallFilter`. The CEL lives in its transport's folder,
 * and the config, which may import transports, compiles it.
 */
export async function hookFilters(hook: HookConfig): Promise<{ readonly tools: readonly ToolPattern[] | undefined; readonly when: CallFilter | undefined }> {
  const entries = hook.tools ?? [];
  const cel = entries.flatMap((entry, index) => (typeof entry === 'object' && 'cel' in entry ? [{ source: entry.cel, where: `tools[${index}].cel` }] : []));
  const plain = entries.filter((entry): entry is ToolPattern => !(typeof entry === 'object' && 'cel' in entry));
  if (cel.length === 0 && hook.when === undefined) return { tools: hook.tools === undefined ? undefined : plain, when: undefined };
  const { celFilter, celToolFilter } = (await import('../transports/cel/index.js')) as CelModule;
  const cost = 'cel' in hook ? { cost_limit: hook.cost_limit } : {};
  let filter: CallFilter | undefined;
  if (cel.length > 0) {
    const celTools = await celToolFilter(cel, { event: hook.event, ...cost });
    if (plain.length === 0) filter = celTools;
    else {
      const matches = compileToolMatcher(plain);
      filter = {
        source: `tools: ${JSON.stringify(plain)} || ${celTools.source}`,
        test: (request: HookRequest) => matches(request.tool_name) || celTools.test(request),
      };
    }
  }
  if (hook.when !== undefined) {
    const when = await celFilter(hook.when, { where: 'when', event: hook.event, ...cost });
    filter = filter === undefined ? when : both(filter, when);
  }
  return { tools: cel.length > 0 ? undefined : hook.tools === undefined ? undefined : plain, when: filter };
}
