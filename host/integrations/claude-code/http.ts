import { contextFromCarrier } from '../../telemetry/propagation.js';
import { serveHookHttp, type HookHttpServer, type RefusalCode, type HookResponseOut } from '../shared/hook-http.js';
import { blockedBody, type ClaudeCodeBridge } from './bridge.js';

/** Options of {@link serveClaudeCode}. */
export interface HttpOptions {
  readonly port: number;
  /** Default 127.0.0.1: the hooks decide what an agent may do, so only this machine may ask. */
  readonly host?: string;
  /** Require `Authorization: Bearer <token>` on every event (`--token-file`). */
  readonly token?: string;
  /** Largest request body accepted, in bytes (default {@link CLAUDE_CODE_MAX_BODY}). */
  readonly maxBodyBytes?: number;
  /** Events read and run at once (default 8); more wait, up to `maxQueued` (default 64). */
  readonly maxConcurrent?: number;
  readonly maxQueued?: number;
  /** Longest wait for a slot (default 5,000 ms) and for a body (default 10,000 ms); then a block. */
  readonly maxWaitMs?: number;
  readonly bodyTimeoutMs?: number;
  /** Told of every refused request (the CLI logs a line). */
  readonly onRefusal?: (code: RefusalCode, message: string) => void;
}

/** The default loopback address. */
export const DEFAULT_HOST = '127.0.0.1' as const;

/**
 * The default body cap, 8 MiB. Measured against Claude Code 2.1.332 (HTTP hooks, a scripted model):
 * a Bash PostToolUse carries at most ~37 KB (Claude Code truncates the output at 30,000 characters);
 * an MCP result is capped by Claude Code at 25,000 tokens; a Read of a file over 256 KB fails before
 * any PostToolUse. What grows with the model's or the file's size: a Write's PreToolUse carries the
 * whole content (3 MB content: 3.04 MB body) and its PostToolUse twice that (6.08 MB), and an Edit's
 * PostToolUse carries the whole file before and after (a 44 MB file: 46.9 MB). A model writes at most
 * its output limit (64k–128k tokens, ~0.5 MB of text, ~1–2 MB JSON-escaped), so 8 MiB takes every Write
 * and any Edit of a file up to ~4 MB; a larger event is refused (blocked: fail closed), and
 * `--max-body-bytes` raises the cap.
 */
export const CLAUDE_CODE_MAX_BODY = 8 * 1024 * 1024;

/** What Claude Code itself might meet (a wrong token, a big event, a full queue) blocks; the rest is a plain 4xx. */
export function claudeCodeRefusal(code: RefusalCode, message: string): HookResponseOut {
  switch (code) {
    case 'method':
      return { status: 405, body: { error: message } };
    case 'origin':
      return { status: 403, body: { error: message } };
    case 'host':
      return { status: 421, body: { error: message } };
    case 'content_type':
      return { status: 415, body: { error: message } };
    default:
      return { status: 200, body: blockedBody(message) };
  }
}

/**
 * Serve the bridge as Claude Code's `type: "http"` hook: each POST body is one event, the response
 * the JSON answer (`{}` for no decision), behind the guarded front of {@link serveHookHttp}: browser
 * and DNS-rebinding requests (an `Origin`, a non-loopback `Host`, a non-JSON type) never reach the
 * chain; a body is capped before it is buffered; events run at most `maxConcurrent` at once.
 *
 * Claude Code treats a non-2xx answer, a refused connection or a timeout as a non-blocking error —
 * **the call proceeds** — so everything the bridge cannot decide for a request Claude Code could
 * have sent (a body it cannot read, one over the cap, a wrong token, a full queue) is answered 200
 * with a block. A server that is not running cannot answer at all: that is why the printed settings
 * pair every http hook with a fail-closed command hook (see `settingsFor`).
 *
 * Resolves once listening; `close()` stops accepting and waits for the calls in flight.
 */
export async function serveClaudeCode(bridge: ClaudeCodeBridge, options: HttpOptions): Promise<Pick<HookHttpServer, 'server' | 'url' | 'load' | 'close'>> {
  const maxBodyBytes = options.maxBodyBytes ?? CLAUDE_CODE_MAX_BODY;
  const http = await serveHookHttp({
    listen: { port: options.port, host: options.host ?? DEFAULT_HOST },
    maxBodyBytes,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    ...(options.maxQueued === undefined ? {} : { maxQueued: options.maxQueued }),
    ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
    ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
    ...(options.onRefusal === undefined ? {} : { onRefusal: options.onRefusal }),
    refuse: claudeCodeRefusal,
    handle: async ({ body, trace }) => {
      // A caller that sends W3C trace context (`traceparent`) gets the chain's span in its trace.
      const answer = await bridge.handle(body, undefined, maxBodyBytes, contextFromCarrier(trace));
      return { status: 200, body: answer.kind === 'blocked' ? blockedBody(answer.reason) : (answer.output ?? {}) };
    },
  });
  return { server: http.server, url: http.url, load: () => http.load(), close: () => http.close() };
}
