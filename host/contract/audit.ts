import * as z from 'zod';
import { HookEvent } from './event.js';
import { FailurePolicy, HookFailure } from './failure.js';
import { JsonValue } from './json.js';
import { HookDecision } from './response.js';

/**
 * Version of the audit stream's shape. Bumped when a change would break a reader of the current
 * one; fields may be added within a version (readers ignore what they do not know).
 */
export const AUDIT_SCHEMA_VERSION = 1 as const;

/*
 * Events are plain (non-strict) objects: a reader written against version 1 keeps reading a stream
 * that later gained fields, as hooks do with responses. Field names match the request and the
 * trail, so a hook, a trail and a stream consumer describe a tool call the same way.
 */
const base = {
  audit_schema: z.literal(AUDIT_SCHEMA_VERSION),
  /** When the event happened (ISO 8601, UTC, milliseconds). */
  time: z.string(),
  event: HookEvent,
  workspace: z.string(),
  agent_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
};

/**
 * Payloads — the tool's input and output — are in the stream only when the operator asked
 * (`audit_payloads: true`): they can hold secrets.
 */
const payload = {
  input: JsonValue.optional(),
  output: JsonValue.optional(),
  is_error: z.boolean().optional(),
};

/** A chain began: which hooks were selected for the call (enforcing and shadow), under which budget. */
export const ChainStarted = z.object({
  ...base,
  type: z.literal('chain_started'),
  /** The hooks selected for this call, in the order they run. */
  hooks: z.array(z.string()),
  /** The event's budget, when the chain has one. */
  budget_ms: z.number().positive().optional(),
  ...payload,
});
export type ChainStarted = z.infer<typeof ChainStarted>;

/**
 * One hook decided (or failed). Like a trail entry: `decision` is what took effect — for a failed
 * hook its policy's (`policy` says so); for a shadow hook what it would have done. With payloads,
 * `input` / `output` / `is_error` are the rewrite a modify or replace made (or proposed).
 */
export const HookDecided = z.object({
  ...base,
  type: z.literal('hook_decided'),
  hook: z.string(),
  decision: HookDecision,
  reason: z.string().optional(),
  failure: HookFailure.optional(),
  policy: FailurePolicy.optional(),
  /** Wall-clock time the hook took, in ms. */
  ms: z.number().nonnegative(),
  shadow: z.boolean(),
  /** What was left of the chain's budget when the hook started, when there is one. */
  budget_left_ms: z.number().optional(),
  /**
   * The hook's first call in its runner (absent on later ones): it paid for what a first call pays —
   * a process's first chain, a component's first instance or JIT warm-up. `basis-hooks audit` keeps
   * these latencies apart from the warm calls'.
   */
  cold: z.boolean().optional(),
  ...payload,
});
export type HookDecided = z.infer<typeof HookDecided>;

/**
 * The chain's verdict. Before the call: `allow` (with `modified`) or `deny` (with the `reason` the
 * model is told). After it: `allow` (with `replaced`) or `deny` (the model is shown `reason` as an
 * error). With payloads: the final input, or output and error flag.
 */
export const ChainDecided = z.object({
  ...base,
  type: z.literal('chain_decided'),
  decision: z.enum(['allow', 'deny']),
  reason: z.string().optional(),
  /** pre_tool_use: whether a hook rewrote the input. */
  modified: z.boolean().optional(),
  /** post_tool_use: whether a hook replaced the output. */
  replaced: z.boolean().optional(),
  /** Wall-clock time the whole chain took, in ms (shadow hooks still running excluded). */
  ms: z.number().nonnegative(),
  ...payload,
});
export type ChainDecided = z.infer<typeof ChainDecided>;

/**
 * A tool's definition changed between two listings from the same server (tool-definition pinning):
 * reported by the MCP gateway. `added`/`removed` compare the names of two complete listings;
 * `changed` names the fields that differ (`description`, `inputSchema`, `outputSchema`, `title`,
 * `annotations`). Digests are sha256 of the definition's canonical JSON.
 */
export const ToolDefinitionChanged = z.object({
  audit_schema: z.literal(AUDIT_SCHEMA_VERSION),
  time: z.string(),
  type: z.literal('tool_definition_changed'),
  /** The server, as the gateway names it (its command or URL). */
  server: z.string(),
  tool_name: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  fields: z.array(z.string()).optional(),
  sha256: z.string().optional(),
  previous_sha256: z.string().optional(),
  /** The identity whose listing showed the change. */
  agent_id: z.string(),
});
export type ToolDefinitionChanged = z.infer<typeof ToolDefinitionChanged>;

/**
 * A tool call refused before any hook ran, by the MCP gateway: the tool is not exposed to the
 * caller's identity (the config's `expose`).
 */
export const ToolCallRefused = z.object({
  audit_schema: z.literal(AUDIT_SCHEMA_VERSION),
  time: z.string(),
  type: z.literal('tool_call_refused'),
  workspace: z.string(),
  agent_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
  reason: z.string(),
});
export type ToolCallRefused = z.infer<typeof ToolCallRefused>;

/**
 * One event of the audit stream (`audit_schema: 1`): `chain_started`, then one `hook_decided` per
 * hook that ran, then `chain_decided`. The MCP gateway adds its own events to the same stream
 * ({@link GatewayAuditEvent}); a reader skips types it does not know. A shadow hook still running when the chain decided reports
 * its `hook_decided` when it answers, after the `chain_decided` of its call.
 *
 * @example
 * {"audit_schema":1,"time":"2026-01-01T00:00:00.000Z","type":"hook_decided","event":"pre_tool_use",
 *  "workspace":"/repo","agent_id":"agent-1","tool_call_id":"call-1","tool_name":"shell",
 *  "hook":"guard","decision":"deny","reason":"force-push","ms":0.012,"shadow":false}
 */
export const AuditEvent = z.discriminatedUnion('type', [ChainStarted, HookDecided, ChainDecided]);
export type AuditEvent = z.infer<typeof AuditEvent>;

/** The MCP gateway's events in the audit stream, beside the chain's. */
export const GatewayAuditEvent = z.discriminatedUnion('type', [ToolDefinitionChanged, ToolCallRefused]);
export type GatewayAuditEvent = z.infer<typeof GatewayAuditEvent>;
