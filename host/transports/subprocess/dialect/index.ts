import type { Decoded } from '../../../codec/wire.js';
import type { HookRequest } from '../../../contract/request.js';
import type { HookResponse } from '../../../contract/response.js';
import { basisDialect } from './basis.js';
import { clineDialect, codexDialect, copilotDialect, cursorDialect, geminiDialect, kiroDialect, qwenDialect, windsurfDialect } from './agents/dialects.js';
import { claudeCodeDialect } from './claude-code/dialect.js';
import type { DialectName } from './names.js';

/** How a hook process ended on its own (not stopped by the host, stdout within its cap). */
export interface ProcessExit {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** What a dialect is given to decide a hook's answer from. */
export interface Finished {
  readonly exit: ProcessExit;
  readonly stdout: Uint8Array;
  /** The kept stderr (capped, marked when truncated). */
  readonly stderr: string;
  /** The request the hook was sent. */
  readonly request: HookRequest;
  /** The command as the user wrote it, for messages. */
  readonly display: string;
}

/**
 * The protocol a subprocess hook speaks: how a request becomes the bytes on its stdin, and how what
 * it left behind (exit status, stdout, stderr) becomes a response or a typed failure. The transport
 * owns everything else — spawning, deadlines, caps, process-group kills — identically for every
 * dialect, and the runner owns every rule of the chain.
 */
export interface Dialect {
  readonly name: DialectName;
  /** The request as the hook reads it on stdin. */
  encode(request: HookRequest): string;
  /** Variables the protocol promises its hooks, per request (the hook's own `env` wins). */
  env?(request: HookRequest): Readonly<Record<string, string>>;
  /** The hook's answer, or the failure it amounts to. */
  decide(finished: Finished): Decoded<HookResponse>;
}

export { DIALECT_NAMES, type DialectName } from './names.js';

/** The dialect of that name. */
export function dialectFor(name: DialectName): Dialect {
  const dialects: Record<DialectName, Dialect> = {
    basis: basisDialect,
    'claude-code': claudeCodeDialect,
    codex: codexDialect,
    gemini: geminiDialect,
    copilot: copilotDialect,
    qwen: qwenDialect,
    cline: clineDialect,
    cursor: cursorDialect,
    windsurf: windsurfDialect,
    kiro: kiroDialect,
  };
  return dialects[name];
}
