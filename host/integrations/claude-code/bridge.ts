import type { Context } from '@opentelemetry/api';
import type { Outcome } from '../../contract/outcome.js';
import type { HookRunner } from '../../runner/runner.js';
import type { ClaudeCodeOutput } from '../../transports/subprocess/dialect/claude-code/protocol.js';
import { objectInputCheck } from '../shared/object-input.js';
import { answerFor, type AnswerOptions } from './answer.js';
import { readEvent } from './event.js';

const CLAUDE_CODE_INPUT = objectInputCheck('Claude Code');

/** What the bridge says for one event. */
export type BridgeAnswer =
  /** The chain ran: print `output` as JSON (nothing when undefined) and exit 0. */
  | { readonly kind: 'answer'; readonly output: ClaudeCodeOutput | undefined; readonly outcome: Outcome }
  /** The bridge could not run the chain: block (exit 2, `reason` on stderr) — never fail open. */
  | { readonly kind: 'blocked'; readonly reason: string };

/**
 * The basis chain as a Claude Code hook: one chain, serial, fail closed, sandboxed components — for
 * PreToolUse, PostToolUse and PostToolUseFailure events. Everything that keeps it from deciding (an
 * event it cannot read, a runner that refuses the call) comes back as `blocked`, which the command
 * turns into exit 2: Claude Code treats any other failure as "proceed".
 *
 * @example
 * const bridge = new ClaudeCodeBridge(await createRunner(await loadConfig('hooks.json')));
 * const answer = await bridge.handle(stdinText);
 */
export class ClaudeCodeBridge {
  readonly #runner: HookRunner;
  readonly #options: AnswerOptions;

  constructor(runner: HookRunner, options: AnswerOptions = {}) {
    this.#runner = runner;
    this.#options = options;
  }

  /**
   * Run the chain for one event (the JSON text Claude Code sent; at most `maxLength` characters).
   * Never rejects. `traceContext` is the trace Claude Code ran the hook in, when it said
   * (`TRACEPARENT` in a command hook's environment, a `traceparent` header): the chain's span
   * continues it.
   */
  async handle(text: string, signal?: AbortSignal, maxLength?: number, traceContext?: Context): Promise<BridgeAnswer> {
    const read = readEvent(text, maxLength);
    if (!read.ok) return { kind: 'blocked', reason: read.problem };
    let outcome: Outcome;
    try {
      // Claude Code's tool inputs are objects: a rewrite to anything else fails that hook.
      outcome = await this.#runner.run(read.call, signal === undefined ? { checkInput: CLAUDE_CODE_INPUT, trace_context: traceContext } : { signal, checkInput: CLAUDE_CODE_INPUT, trace_context: traceContext });
    } catch (error) {
      return { kind: 'blocked', reason: `the hooks could not run: ${error instanceof Error ? error.message : String(error)}` };
    }
    return { kind: 'answer', output: answerFor(read.input, outcome, this.#options), outcome };
  }

  /** Close the hooks' transports. */
  close(): Promise<void> {
    return this.#runner.close();
  }
}

/** A reason on one line (Claude Code shows it as is; a config error lists its issues on several). */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}

/**
 * The HTTP form of "blocked": Claude Code treats a non-2xx answer as a non-blocking error (the call
 * proceeds), so a bridge that cannot decide answers 200 with a block — `decision: "block"` is read
 * at PreToolUse (as a deny) and after the call alike.
 */
export function blockedBody(reason: string): ClaudeCodeOutput {
  return { decision: 'block', reason: `basis-hooks: ${oneLine(reason)}` };
}
