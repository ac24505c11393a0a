import { parseJsonText } from '../../codec/json-text.js';
import type { HookCall } from '../../contract/call.js';
import { JSON_LIMITS } from '../../contract/limits.js';
import type { Outcome } from '../../contract/outcome.js';
import type { HookRunner } from '../../runner/runner.js';
import type { Context } from '@opentelemetry/api';
import { objectInputCheck } from '../shared/object-input.js';
import type { AgentName } from './names.js';
import { agentDialect } from './registry.js';
import { fromCanonical, mcpAmbiguity, toCanonical } from './tool-names.js';
import type { AgentReply } from './types.js';

/** Options of {@link handleAgentEvent}. */
export interface HandleOptions {
  /** Longest event text read (the HTTP front caps the body first). */
  readonly maxLength?: number;
  /** `canonical`: hooks see one vocabulary of tool names (the config's `tool_names`). */
  readonly toolNames?: 'native' | 'canonical';
  readonly signal?: AbortSignal;
  /** The trace the agent ran the hook in (a `traceparent` header), continued by the chain's span. */
  readonly traceContext?: Context | undefined;
}

const OBJECT_INPUT = objectInputCheck('agent');

/**
 * One agent event, start to finish: read the JSON the agent wrote (within the JSON limits: depth and
 * length checked in one linear pass before parsing), map it onto a basis call (canonical names when
 * asked), run the chain, map a rewrite back into the agent's own shape, and answer in the agent's
 * dialect. Never rejects: everything that keeps the chain from deciding is the agent's *block*.
 */
export async function handleAgentEvent(runner: HookRunner, agent: AgentName, text: string, options: HandleOptions = {}): Promise<AgentReply> {
  const dialect = agentDialect(agent);
  const parsed = parseJsonText(text, { maxDepth: JSON_LIMITS.max_depth + 3, maxLength: options.maxLength ?? JSON_LIMITS.max_length });
  if (!parsed.ok) return dialect.block(parsed.problem === 'syntax' ? `the hook input is not JSON (${parsed.message})` : `the hook input ${parsed.message}`);
  const read = dialect.read(parsed.value);
  if (!read.ok) return dialect.block(read.problem, read.event);
  const { event } = read;
  const canonical = options.toolNames === 'canonical';
  let call: HookCall = event.call;
  if (canonical) {
    const ambiguous = mcpAmbiguity(agent, call.tool_name, event.mcp);
    if (ambiguous !== undefined) return dialect.block(ambiguous, event.event);
    const mapped = toCanonical(agent, call.tool_name, call.input, event.mcp);
    call = { ...call, tool_name: mapped.name, input: mapped.input };
  }
  let outcome: Outcome;
  try {
    outcome = await runner.run(call, { ...(options.signal === undefined ? {} : { signal: options.signal }), checkInput: OBJECT_INPUT, trace_context: options.traceContext });
  } catch (error) {
    return dialect.block(`the hooks could not run: ${error instanceof Error ? error.message : String(error)}`, event.event);
  }
  if (canonical && outcome.event === 'pre_tool_use' && outcome.decision === 'allow' && outcome.modified) {
    outcome = { ...outcome, input: fromCanonical(agent, event.tool, outcome.input, event.input) };
  }
  try {
    return dialect.answer(event, outcome);
  } catch (error) {
    return dialect.block(`internal error: ${error instanceof Error ? error.message : String(error)}`, event.event);
  }
}
