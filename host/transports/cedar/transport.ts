import { resolve } from 'node:path';
import type { RequestText } from '../../codec/request.js';
import type { Explanation } from '../../contract/explanation.js';
import type { HookRequest } from '../../contract/request.js';
import { HookError, isHookError } from '../../errors/hook-error.js';
import { OptionsError } from '../../errors/options-error.js';
import { isPackageMissingError } from '../../errors/package-missing-error.js';
import { isPolicyError } from '../../errors/policy-error.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { explainAnswer, resultOf } from './answer.js';
import { DecisionCache } from './cache.js';
import { loadCedarEngine, type CedarEngine, type CedarEntity } from './engine.js';
import { actionGroups, actionOf, contextOf, principalOf, resourceOf } from './mapping.js';
import { EntitySlices } from './slice.js';
import { hierarchyOf, scopeTest, Subsets } from './scope.js';
import { loadPolicySet, type CedarFiles, type LoadedPolicySet } from './policy-set.js';
import { Holds } from './preparsed.js';

/** Options of {@link cedarTransport}: the files, and the decision cache. */
export interface CedarOptions extends CedarFiles {
  /**
   * Remember the decisions of this many distinct requests (default 0: off). A repeated request — the
   * same event, tool, agent, workspace, input (and output) — is answered from memory without asking
   * Cedar. Worth it when agents repeat calls; costs memory for each remembered decision.
   */
  readonly decision_cache?: number | undefined;
}

/** What a loaded Cedar hook holds. */
export interface CedarInfo {
  /** The digest its `sha256` pins: see `policySetDigest`. */
  readonly sha256: string;
  readonly cedar_version: string;
  readonly policies: number;
  readonly entities: number;
  readonly schema: boolean;
  /** Cedar's validation warnings, `file:line:col: message`. */
  readonly warnings: readonly string[];
  readonly timings_ms: { readonly load: number };
  /**
   * The id the engine holds the preparsed set under, while this hook lives (to ask the engine
   * directly beside the hook, as the bench does; reused for other policies once the hook is gone).
   */
  readonly preparsed_id: string;
}

/** A Cedar hook. */
export interface CedarTransport extends Transport {
  readonly kind: 'cedar';
  /**
   * Load the engine (on first use) and the hook's files, validate them and preparse the policy set.
   * Rejects with `HookError('load_failed')` whose `cause` is the `PolicyError` (Cedar's diagnostics
   * with file, line and column) or the `PackageMissingError` (the engine is not installed: the command
   * that installs it). Idempotent.
   */
  load(): Promise<CedarInfo>;
  check(): Promise<void>;
  explain(request: HookRequest): Promise<Explanation>;
}

interface Loaded {
  readonly engine: CedarEngine;
  readonly set: LoadedPolicySet;
  readonly id: string;
  /** The subset of the policies each request is decided with (scope.ts). */
  readonly subsets: Subsets;
  /** The entities each request is decided with (slice.ts). */
  readonly slices: EntitySlices;
  readonly info: CedarInfo;
}

/** The request's exact text, for the decision cache's key. */
function cacheKey(request: HookRequest, text: RequestText | undefined): string {
  const input = text !== undefined && text.request === request ? text.input : JSON.stringify(request.input);
  const head = `${request.event}\u0000${request.tool_name}\u0000${request.agent_id}\u0000${request.workspace}\u0000${input}`;
  if (request.event !== 'post_tool_use') return head;
  const output = text !== undefined && text.request === request ? text.output : JSON.stringify(request.output);
  return `${head}\u0000${output ?? 'null'}\u0000${request.is_error}`;
}

/**
 * A hook written as a Cedar policy set, decided in-process by the official engine
 * (`@cedar-policy/cedar-wasm`, an optional peer dependency). Cedar is not Turing-complete and its
 * evaluation is bounded; policies are data, so they run without the WebAssembly sandbox's metering.
 * Each call becomes a Cedar request (principal `Agent::"<agent_id>"`, action `Action::"<tool_name>"`,
 * resource `Workspace::"<workspace>"`, context `{input, output?, is_error?, event}`; see mapping.ts),
 * decided against the preparsed policy set: a `forbid` (or no `permit`) is a deny whose reason is the
 * policies' `@reason`, a `permit` an allow, and an evaluation error a failure (`policy_error`), never
 * an allow. With a schema, a tool it declares no action for is denied.
 *
 * @example
 * const guard = cedarTransport({ policies: 'policies/tools.cedar', entities: 'policies/entities.json' });
 * await guard.load(); // Cedar's diagnostics, with file and line, if anything is wrong
 * const runner = new HookRunner([{ name: 'tools', event: 'pre_tool_use', transport: guard }]);
 */
export function cedarTransport(options: CedarOptions): CedarTransport {
  if (typeof options.policies !== 'string' || options.policies === '') throw new OptionsError('cedar option policies is required (the policy set file)', { option: 'policies' });
  const cacheSize = options.decision_cache ?? 0;
  if (!Number.isSafeInteger(cacheSize) || cacheSize < 0) throw new OptionsError(`cedar option decision_cache must be a whole number of entries (got ${String(options.decision_cache)})`, { option: 'decision_cache' });
  const maxBytes = options.max_file_bytes;
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)) throw new OptionsError(`cedar option max_file_bytes must be a positive integer (got ${String(maxBytes)})`, { option: 'max_file_bytes' });
  const files: CedarFiles = {
    policies: resolve(options.policies),
    entities: options.entities === undefined ? undefined : resolve(options.entities),
    schema: options.schema === undefined ? undefined : resolve(options.schema),
    max_file_bytes: maxBytes,
  };
  const cache = cacheSize > 0 ? new DecisionCache<InvokeResult>(cacheSize) : undefined;
  let loading: Promise<Loaded> | undefined;
  let loaded: Loaded | undefined;

  async function doLoad(): Promise<Loaded> {
    const started = performance.now();
    try {
      const engine = await loadCedarEngine();
      const set = await loadPolicySet(engine, files);
      // Preparsed once, by content: a call never parses a policy. Hooks of the same files share it; the
      // engine's copy is reused for other content once no live hook holds it (preparsed.ts).
      const content = `basis-hooks:${set.sha256}`;
      let failed: string | undefined;
      const id = holds.acquire(content, (slot) => {
        const preparsed = engine.preparsePolicySet(slot, { staticPolicies: set.record });
        if (preparsed.type === 'failure') failed = `${files.policies}: Cedar could not preparse the policy set: ${preparsed.errors.map((e) => e.message).join('; ')}`;
        else if (set.schema !== undefined) {
          const schema = engine.preparseSchema(slot, set.schema);
          if (schema.type === 'failure') failed = `${files.schema ?? ''}: Cedar could not preparse the schema: ${schema.errors.map((e) => e.message).join('; ')}`;
        }
        return failed === undefined;
      });
      if (id === undefined) throw new HookError('load_failed', failed ?? `${files.policies}: Cedar could not preparse the policy set`);
      const info: CedarInfo = {
        sha256: set.sha256,
        cedar_version: engine.getCedarVersion(),
        policies: set.policies.size,
        entities: set.entities.length,
        schema: set.schema !== undefined,
        warnings: set.warnings,
        timings_ms: { load: performance.now() - started },
        preparsed_id: id,
      };
      const policies = [...set.policies.values()].map((policy) => ({ id: policy.id, text: policy.text, applies: scopeTest(policy.scope) }));
      const subsets = new Subsets(engine, id, policies, hierarchyOf(set.entities, set.schemaActions), { content, acquire: (key, preparse) => holds.acquire(key, preparse) });
      const slices = new EntitySlices(set.entities, policies.map((p) => p.text), set.schema !== undefined);
      const done: Loaded = { engine, set, id, subsets, slices, info };
      loaded = done;
      return done;
    } catch (error) {
      // An invalid policy, or the engine not installed: the hook does not load (the cause says which).
      if (isPolicyError(error) || isPackageMissingError(error)) throw new HookError('load_failed', error.message, { cause: error });
      throw error;
    }
  }

  function load(): Promise<Loaded> {
    loading ??= doLoad();
    return loading;
  }

  /** Ask Cedar (no cache): its raw answer, or the deny of a tool the schema does not declare. */
  function ask(state: Loaded, request: HookRequest): { readonly raw: unknown } | { readonly undeclared: true } {
    if (state.set.actions !== undefined && !state.set.actions.has(request.tool_name)) return { undeclared: true };
    const principal = principalOf(request);
    const action = actionOf(request);
    const resource = resourceOf(request);
    // Without a schema the action's groups are the mapping's (and the entities file's); with one, the schema's.
    const groups = state.set.schema !== undefined ? [] : actionGroups(request.tool_name, request.event);
    const base = { principal, action, resource, context: contextOf(request), preparsedPolicySetId: state.subsets.idFor(principal, action, groups, resource) };
    const entities: readonly CedarEntity[] = state.slices.for(principal, request.tool_name, request.event, resource);
    const call = state.set.schema === undefined ? { ...base, entities } : { ...base, preparsedSchemaName: state.id, validateRequest: true, entities };
    return { raw: state.engine.statefulIsAuthorized(call) };
  }

  function undeclared(request: HookRequest): InvokeResult {
    return { ok: true, response: { decision: 'deny', reason: `no policy permits this call (tool ${JSON.stringify(request.tool_name)}: the schema declares no such action)` } };
  }

  function decide(state: Loaded, request: HookRequest, text: RequestText | undefined): InvokeResult {
    const key = cache === undefined ? undefined : cacheKey(request, text);
    if (key !== undefined) {
      const hit = cache?.get(key);
      if (hit !== undefined) return hit;
    }
    let result: InvokeResult;
    try {
      const asked = ask(state, request);
      result = 'undeclared' in asked ? undeclared(request) : resultOf(state.set, request, asked.raw);
    } catch (error) {
      // The engine itself threw (a panic in the WebAssembly build): our side's failure, still closed.
      return { ok: false, failure: { code: 'internal_error', message: `the Cedar engine threw: ${error instanceof Error ? error.message : String(error)}` } };
    }
    // Failures are not remembered: the next identical call asks again.
    if (key !== undefined && result.ok) cache?.set(key, result);
    return result;
  }

  async function decideAfterLoad(request: HookRequest, text: RequestText | undefined): Promise<InvokeResult> {
    try {
      return decide(await load(), request, text);
    } catch (error) {
      return { ok: false, failure: isHookError(error) ? error.toFailure() : { code: 'load_failed', message: String(error) } };
    }
  }

  const self: CedarTransport = {
    kind: 'cedar',
    // For telemetry (basis_hooks.isolation): evaluated on the caller's thread, as an interceptor is.
    isolation: 'in-process',
    async load() {
      return (await load()).info;
    },
    async check() {
      await load();
    },
    invoke(request: HookRequest, context: InvokeContext): InvokeResult | Promise<InvokeResult> {
      return loaded === undefined ? decideAfterLoad(request, context.text) : decide(loaded, request, context.text);
    },
    async explain(request: HookRequest): Promise<Explanation> {
      const state = await load();
      const asked = ask(state, request);
      if ('undeclared' in asked) {
        const result = undeclared(request);
        return { engine: 'cedar', summary: `deny: ${result.ok && result.response.decision === 'deny' ? result.response.reason : ''}`, items: [] };
      }
      return { engine: 'cedar', ...explainAnswer(state.set, request, asked.raw) };
    },
  };
  // What this hook preparses is given back when it is garbage-collected (a reloaded config's old hooks).
  const holds = new Holds(self);
  return self;
}
