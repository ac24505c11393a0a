/*
 * Fast validators in front of zod for what crosses the worker boundary on every call (messages.ts):
 * the host's `invoke` and the worker's replies. Each accepts only a strict, obviously valid subset —
 * exactly the keys of its variant, each of the right type — and returns a fresh literal equal to what
 * zod's parse returns; anything else goes to zod, which decides and words the error.
 * test/perf/fast-validators.test.ts proves the agreement on a generated corpus.
 */
import type { WitDecision, WitHookRequest } from '../../../codec/wit.js';
import type { SafeParse } from '../../../contract/fast/call.js';
import { HostToWorker, WorkerToHost } from '../messages.js';

type Rec = Readonly<Record<string, unknown>>;

function isPlainRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Own enumerable keys, or -1 when one is `__proto__` (zod's copy would lose it: zod decides). */
function keyCount(record: Rec): number {
  let n = 0;
  for (const key in record) {
    if (key === '__proto__') return -1;
    n++;
  }
  return n;
}

function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** `WitHookRequest` (strict) when obviously one. */
export function fastWitHookRequest(value: unknown): WitHookRequest | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { hookSchema, event, workspace, agentId, toolCallId, toolName, input, output, isError } = value as Record<string, unknown>;
  if (!isInt(hookSchema) || hookSchema < 0) return undefined;
  if (typeof workspace !== 'string' || typeof agentId !== 'string' || typeof toolCallId !== 'string') return undefined;
  if (typeof toolName !== 'string' || typeof input !== 'string') return undefined;
  const n = keyCount(value);
  if (event === 'pre-tool-use' && output === undefined && isError === undefined) {
    return n === 7 ? { hookSchema, event, workspace, agentId, toolCallId, toolName, input } : undefined;
  }
  if (event === 'post-tool-use' && typeof output === 'string' && typeof isError === 'boolean') {
    return n === 9 ? { hookSchema, event, workspace, agentId, toolCallId, toolName, input, output, isError } : undefined;
  }
  // Other combinations (a pre request with an output, a post one without) are valid WIT records
  // (both fields are options), rare, and zod's to judge.
  return undefined;
}

/** `WitDecision` when obviously one. */
export function fastWitDecision(value: unknown): WitDecision | undefined {
  if (!isPlainRecord(value)) return undefined;
  const n = keyCount(value);
  const val = value['val'];
  switch (value['tag']) {
    case 'allow':
      return n === 1 ? { tag: 'allow' } : undefined;
    case 'deny':
      return n === 2 && typeof val === 'string' ? { tag: 'deny', val } : undefined;
    case 'modify': {
      if (n !== 2 || !isPlainRecord(val)) return undefined;
      const { input, reason } = val as Record<string, unknown>;
      if (typeof input !== 'string') return undefined;
      const m = keyCount(val);
      if (reason === undefined) return m === 1 ? { tag: 'modify', val: { input } } : undefined;
      return m === 2 && typeof reason === 'string' ? { tag: 'modify', val: { input, reason } } : undefined;
    }
    case 'replace': {
      if (n !== 2 || !isPlainRecord(val)) return undefined;
      const { output, isError, reason } = val as Record<string, unknown>;
      if (typeof output !== 'string') return undefined;
      if (isError !== undefined && typeof isError !== 'boolean') return undefined;
      if (reason !== undefined && typeof reason !== 'string') return undefined;
      const expected = 1 + (isError === undefined ? 0 : 1) + (reason === undefined ? 0 : 1);
      if (keyCount(val) !== expected) return undefined;
      if (isError === undefined) return reason === undefined ? { tag: 'replace', val: { output } } : { tag: 'replace', val: { output, reason } };
      return reason === undefined ? { tag: 'replace', val: { output, isError } } : { tag: 'replace', val: { output, isError, reason } };
    }
    default:
      return undefined;
  }
}

type Logs = { stdout?: string; stderr?: string };

function fastLogs(value: unknown): Logs | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { stdout, stderr } = value as Record<string, unknown>;
  if (stdout !== undefined && typeof stdout !== 'string') return undefined;
  if (stderr !== undefined && typeof stderr !== 'string') return undefined;
  if (keyCount(value) !== (stdout === undefined ? 0 : 1) + (stderr === undefined ? 0 : 1)) return undefined;
  if (stdout === undefined) return stderr === undefined ? {} : { stderr };
  return stderr === undefined ? { stdout } : { stdout, stderr };
}

const TRAP_KINDS: ReadonlySet<unknown> = new Set(['trap', 'stack-overflow', 'exit', 'abi']);

/** A worker's message ({@link WorkerToHost}) when obviously one: every variant but `init-failed`. */
export function fastWorkerToHost(value: unknown): WorkerToHost | undefined {
  if (!isPlainRecord(value)) return undefined;
  const type = value['type'];
  const n = keyCount(value);
  if (type === 'ready') return n === 1 ? { type: 'ready' } : undefined;
  const id = value['id'];
  if (!isInt(id)) return undefined;
  if (type === 'refused') {
    const why = value['message'];
    return n === 3 && typeof why === 'string' ? { type, id, message: why } : undefined;
  }
  const logs = fastLogs(value['logs']);
  if (logs === undefined) return undefined;
  const message = value['message'];
  switch (type) {
    case 'result': {
      const decision = fastWitDecision(value['decision']);
      return n === 4 && decision !== undefined ? { type, id, decision, logs } : undefined;
    }
    case 'guest-error':
    case 'malformed':
      return n === 4 && typeof message === 'string' ? { type, id, message, logs } : undefined;
    case 'stopped': {
      const reason = value['reason'];
      const phase = value['phase'];
      if (n !== 6 || typeof message !== 'string' || (reason !== 'deadline' && reason !== 'fuel') || (phase !== 'call' && phase !== 'instantiate')) return undefined;
      return { type, id, reason, phase, message, logs };
    }
    case 'limit': {
      const what = value['what'];
      if (n !== 5 || typeof message !== 'string' || (what !== 'memory' && what !== 'resources' && what !== 'host-call')) return undefined;
      return { type, id, what, message, logs };
    }
    case 'too-large': {
      const bytes = value['bytes'];
      return n === 4 && isInt(bytes) ? { type, id, bytes, logs } : undefined;
    }
    case 'trap': {
      const kind = value['kind'];
      const memoryAtLimit = value['memoryAtLimit'];
      if (n !== 6 || typeof message !== 'string' || typeof memoryAtLimit !== 'boolean' || !TRAP_KINDS.has(kind)) return undefined;
      return { type, id, kind: kind as 'trap' | 'stack-overflow' | 'exit' | 'abi', message, memoryAtLimit, logs };
    }
    default:
      return undefined;
  }
}

/** The host's `invoke` message when obviously one (`init` is once per worker: zod's). */
export function fastInvokeMessage(value: unknown): Extract<HostToWorker, { type: 'invoke' }> | undefined {
  if (!isPlainRecord(value) || value['type'] !== 'invoke' || keyCount(value) !== 3) return undefined;
  const id = value['id'];
  const request = fastWitHookRequest(value['request']);
  return isInt(id) && request !== undefined ? { type: 'invoke', id, request } : undefined;
}

/** `WorkerToHost.safeParse` with the fast path in front. */
export function parseWorkerToHost(value: unknown): SafeParse<WorkerToHost> {
  const fast = fastWorkerToHost(value);
  if (fast !== undefined) return { success: true, data: fast };
  return WorkerToHost.safeParse(value);
}

/** `HostToWorker.safeParse` with the fast path in front. */
export function parseHostToWorker(value: unknown): SafeParse<HostToWorker> {
  const fast = fastInvokeMessage(value);
  if (fast !== undefined) return { success: true, data: fast };
  return HostToWorker.safeParse(value);
}
