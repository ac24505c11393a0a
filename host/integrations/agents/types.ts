import type { HookCall } from '../../contract/call.js';
import type { JsonValue } from '../../contract/json.js';
import type { Outcome } from '../../contract/outcome.js';
import type { AgentName } from './names.js';

/**
 * What a command hook hands back to its agent: the exit status, stdout and stderr. Every agent reads
 * some of the three; a dialect says which form each of its answers takes.
 */
export interface AgentReply {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One agent event, read: the basis call, and what the answer needs from the original. */
export interface AgentEvent {
  readonly call: HookCall;
  /** The agent's own event name (`PreToolUse`, `BeforeTool`, `preToolUse`, `pre_run_command`…). */
  readonly event: string;
  /** The agent's own tool name and input, as sent (a rewrite is mapped back onto them). */
  readonly tool: string;
  readonly input: JsonValue;
  /** Anything else the answer needs (Copilot's payload dialect, Cline's hook name…). */
  readonly extra?: Readonly<Record<string, JsonValue>>;
  /**
   * The MCP server and tool, when the agent names them itself beside the tool name (Gemini CLI's
   * `mcp_context`, Windsurf's `tool_info`): exact, where the tool name alone can be ambiguous
   * (Gemini's `mcp_<server>_<tool>` when the server name holds an underscore) or sanitised.
   */
  readonly mcp?: { readonly server: string; readonly tool: string };
}

/** A read event, or why it could not be read (the client then blocks). */
export type ReadAgentEvent = { readonly ok: true; readonly event: AgentEvent } | { readonly ok: false; readonly problem: string; readonly event?: string };

/** What an agent can do with each of the chain's possible decisions. */
export interface AgentCapabilities {
  /** A pre-call rewrite: applied (`apply`) or turned into a block (`block`). */
  readonly modify: 'apply' | 'block';
  /**
   * A post-call replacement: applied so the model reads it (`apply`), shown to the model as an error
   * text in place of the output (`as_error`), or impossible — the call is blocked/stopped instead
   * (`block`), or only a note beside the original output (`annotate`, the original still reaches the model).
   */
  readonly replace: 'apply' | 'as_error' | 'block' | 'annotate' | 'none';
  /** A post-call deny (withhold the output): as for replace. */
  readonly postDeny: 'apply' | 'as_error' | 'block' | 'annotate' | 'none';
  /** Whether its hooks see post-call events at all. */
  readonly post: boolean;
  /** The unit of its hook timeout setting. */
  readonly timeoutUnit: 's' | 'ms';
  /**
   * Whether "no objection" is no output at all (exit 0, empty stdout). False where every answer is
   * JSON (Cline's `{"cancel": false}`, Cursor's `{"permission": "allow"}`): there an empty answer is
   * a broken client, and the installed script blocks instead of passing it on.
   */
  readonly silentAllow: boolean;
}

/** One agent's hook protocol, both ways round. */
export interface AgentDialect {
  readonly name: AgentName;
  /** The agent's display name. */
  readonly title: string;
  /** The version this dialect was checked against (and where). */
  readonly checked: string;
  readonly capabilities: AgentCapabilities;
  /** Read the JSON an agent wrote on a hook's stdin. */
  read(value: unknown): ReadAgentEvent;
  /** The agent's answer for the chain's outcome. */
  answer(event: AgentEvent, outcome: Outcome): AgentReply;
  /**
   * Block, in the agent's own blocking form (never its fail-open path), when the chain could not
   * decide: no server, a config that does not load, an event that cannot be read. `event` when known.
   */
  block(reason: string, event?: string): AgentReply;
}

/** Reply helpers. */
export const reply = {
  /** Exit 0, nothing printed: "no objection". */
  none: (): AgentReply => ({ exit: 0, stdout: '', stderr: '' }),
  /** Exit 0 with a JSON answer on stdout. */
  json: (value: unknown): AgentReply => ({ exit: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' }),
  /** Exit 2 with the reason on stderr (never empty: Codex treats an empty one as a failure). */
  exit2: (reason: string): AgentReply => ({ exit: 2, stdout: '', stderr: `${oneLine(reason) || 'blocked by basis-hooks'}\n` }),
};

/** A reason on one line. */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}

/** The outcome's output as text for an agent that takes a string. */
export function asText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The hooks that rewrote the call, for a reason. */
export function rewriters(outcome: Outcome): string {
  return outcome.trail.filter((t) => t.decision === 'modify' || t.decision === 'replace').map((t) => t.hook).join(', ');
}

/** A fallback tool call id when the agent sends none. */
export function syntheticId(agent: AgentName): string {
  return `${agent}-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
}
