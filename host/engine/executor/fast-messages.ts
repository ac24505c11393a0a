/*
 * Fast validators in front of zod for what crosses the worker boundary on every call (messages.ts):
 * the worker's replies and spilled invokes. Each accepts only a strict, obviously valid subset —
 * exactly the keys of its variant, each of the right type — and returns a fresh literal equal to what
 * zod's parse returns; anything else goes to zod, which decides and words the error.
 * test/perf/fast-validators.test.ts proves the agreement on a generated corpus.
 */
import { isInt, isPlainRecord, keyCount, type SafeParsed } from '../fast-record.js';
import { ABI_VIOLATIONS, LIMIT_KINDS, TRAP_KINDS as TRAPS, type EngineLogs, type OutcomeMessage } from '../outcome.js';

type OutcomeTrap = Extract<OutcomeMessage, { type: 'trap' }>;
const TRAP_KINDS: ReadonlySet<unknown> = new Set(TRAPS);
const VIOLATIONS: ReadonlySet<unknown> = new Set(ABI_VIOLATIONS);
const LIMITS: ReadonlySet<unknown> = new Set(LIMIT_KINDS);
import { HostToWorker, WorkerToHost } from './messages.js';

function fastLogs(value: unknown): EngineLogs | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { stdout, stderr } = value as Record<string, unknown>;
  if (stdout !== undefined && typeof stdout !== 'string') return undefined;
  if (stderr !== undefined && typeof stderr !== 'string') return undefined;
  if (keyCount(value) !== (stdout === undefined ? 0 : 1) + (stderr === undefined ? 0 : 1)) return undefined;
  if (stdout === undefined) return stderr === undefined ? {} : { stderr };
  return stderr === undefined ? { stdout } : { stdout, stderr };
}

/** An outcome when obviously one: `ok` (its value is the codec's to check) and the common failures. */
export function fastOutcome(value: unknown): OutcomeMessage | undefined {
  if (!isPlainRecord(value)) return undefined;
  const logs = fastLogs(value['logs']);
  if (logs === undefined) return undefined;
  const n = keyCount(value);
  const message = value['message'];
  switch (value['type']) {
    case 'ok':
      // The value may be any JSON value; only `undefined` (a key zod requires) is left to zod.
      return n === 3 && value['value'] !== undefined ? { type: 'ok', value: value['value'], logs } : undefined;
    case 'timeout': {
      const reason = value['reason'];
      const phase = value['phase'];
      if (n !== 5 || typeof message !== 'string' || (reason !== 'deadline' && reason !== 'fuel' && reason !== 'aborted') || (phase !== 'call' && phase !== 'instantiate')) return undefined;
      return { type: 'timeout', reason, phase, message, logs };
    }
    case 'load-failure':
      return n === 3 && typeof message === 'string' ? { type: 'load-failure', message, logs } : undefined;
    case 'trap': {
      const kind = value['kind'];
      const violation = value['violation'];
      const memoryAtLimit = value['memoryAtLimit'];
      if (typeof message !== 'string' || typeof memoryAtLimit !== 'boolean' || !TRAP_KINDS.has(kind)) return undefined;
      const trapKind = kind as OutcomeTrap['kind'];
      if (violation === undefined) return n === 5 ? { type: 'trap', kind: trapKind, message, memoryAtLimit, logs } : undefined;
      return n === 6 && VIOLATIONS.has(violation) ? { type: 'trap', kind: trapKind, violation: violation as OutcomeTrap['violation'] & string, message, memoryAtLimit, logs } : undefined;
    }
    case 'limit': {
      const what = value['what'];
      const bytes = value['bytes'];
      if (typeof message !== 'string' || !LIMITS.has(what)) return undefined;
      const limit = what as Extract<OutcomeMessage, { type: 'limit' }>['what'];
      if (bytes === undefined) return n === 4 ? { type: 'limit', what: limit, message, logs } : undefined;
      return n === 5 && isInt(bytes) && bytes >= 0 ? { type: 'limit', what: limit, message, bytes, logs } : undefined;
    }
    default:
      return undefined;
  }
}

/** A worker's message ({@link WorkerToHost}) when obviously one: `ready` and replies with a common outcome. */
export function fastWorkerToHost(value: unknown): WorkerToHost | undefined {
  if (!isPlainRecord(value)) return undefined;
  const type = value['type'];
  const n = keyCount(value);
  if (type === 'ready') return n === 1 ? { type: 'ready' } : undefined;
  if (type !== 'reply' || n !== 3) return undefined;
  const id = value['id'];
  const outcome = fastOutcome(value['outcome']);
  return isInt(id) && outcome !== undefined ? { type: 'reply', id, outcome } : undefined;
}

/** The caller's spilled `invoke` when obviously one (`init` is once per worker: zod's). */
export function fastInvokeMessage(value: unknown): Extract<HostToWorker, { type: 'invoke' }> | undefined {
  if (!isPlainRecord(value) || value['type'] !== 'invoke' || keyCount(value) !== 3) return undefined;
  const id = value['id'];
  const bytes = value['bytes'];
  return isInt(id) && bytes instanceof Uint8Array ? { type: 'invoke', id, bytes: bytes as Uint8Array<ArrayBuffer> } : undefined;
}

/** `WorkerToHost.safeParse` with the fast path in front. */
export function parseWorkerToHost(value: unknown): SafeParsed<WorkerToHost> {
  const fast = fastWorkerToHost(value);
  if (fast !== undefined) return { success: true, data: fast };
  return WorkerToHost.safeParse(value);
}

/** `HostToWorker.safeParse` with the fast path in front. */
export function parseHostToWorker(value: unknown): SafeParsed<HostToWorker> {
  const fast = fastInvokeMessage(value);
  if (fast !== undefined) return { success: true, data: fast };
  return HostToWorker.safeParse(value);
}
