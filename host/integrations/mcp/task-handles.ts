import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { JsonValue } from '../../contract/json.js';

/** What a sealed task handle carries: the server's task id and the call that started it. */
export interface TaskSealContents {
  /** The server's own task id. */
  readonly taskId: string;
  readonly tool: string;
  readonly input: JsonValue;
  readonly toolCallId: string;
  /** The identity that started it: only that identity may poll, update or cancel it. */
  readonly agentId: string;
}

const PREFIX = 'bh1.';

/**
 * Task handles that carry their own state (2026-07-28's tasks extension is stateless, and so are the
 * gateway's replicas): the task id a client gets is the server's id plus the call that started it
 * (tool name, input, id, identity), compressed and authenticated with HMAC-SHA256 under a key every
 * replica shares (`--state-secret-file`; without one, a random key per process: handles then work
 * only on the replica that made them). Whichever replica a poll lands on can run the post chain of
 * the call on the task's result, and a handle forged or altered by a client is refused.
 */
export class TaskSeal {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.#key = key;
  }

  seal(contents: TaskSealContents): string {
    const payload = deflateRawSync(Buffer.from(JSON.stringify([contents.taskId, contents.tool, contents.input, contents.toolCallId, contents.agentId]), 'utf8')).toString('base64url');
    return `${PREFIX}${payload}.${this.#mac(payload)}`;
  }

  /** The contents of a handle this key sealed, or `undefined` (not a handle, or forged, altered, or sealed under another key). */
  open(handle: string): TaskSealContents | undefined {
    if (!handle.startsWith(PREFIX)) return undefined;
    const [payload, mac] = handle.slice(PREFIX.length).split('.');
    if (payload === undefined || mac === undefined) return undefined;
    const expected = Buffer.from(this.#mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const [taskId, tool, input, toolCallId, agentId] = JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url')).toString('utf8')) as [string, string, JsonValue, string, string];
      return { taskId, tool, input, toolCallId, agentId };
    } catch {
      return undefined;
    }
  }

  #mac(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }
}
