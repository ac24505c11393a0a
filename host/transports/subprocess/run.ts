import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { HookFailure } from '../../contract/failure.js';
import type { HookRequest } from '../../contract/request.js';
import type { HookLogs, InvokeResult } from '../../runner/transport.js';
import { StderrCapture, StdoutCapture } from './capture.js';
import { isDirectory } from './check.js';
import { stderrExcerpt } from './dialect/basis.js';
import type { ResolvedSubprocessOptions } from './options.js';
import { signalGroup } from './process-group.js';

/** Why the host ended a hook before it exited on its own. */
export type StopReason = 'timeout' | 'aborted' | 'closed';

/** One hook process in flight. */
export interface HookProcess {
  /** Settles once, never rejects: the response, or a typed failure. */
  readonly result: Promise<InvokeResult>;
  /** End the hook early (its whole process group); `result` then settles as a `timeout` failure. */
  stop(reason: StopReason): void;
}

/** SIGTERM first so a hook can clean up; SIGKILL this much later for whatever ignored it. */
export const KILL_DELAY_MS = 150;
/**
 * After the hook exits, how long to wait for stdout/stderr EOF before deciding with what was read.
 * Everything the hook printed before exiting is already in the pipe; only a descendant that escaped
 * the process group (setsid) can hold it open this long. When the period ends, the pipes are still
 * read for what is already in them before deciding (see `drainThenFinish`).
 */
export const EXIT_GRACE_MS = 75;
/** At most this many event-loop turns are spent reading what the pipes still hold once the grace period ended. */
const DRAIN_TURNS = 20;
/** After SIGKILL, settle even if the exit is never observed (a process stuck in uninterruptible sleep). */
const STOP_DEADLINE_MS = 1000;

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Start one hook process and decide its answer. The rules, in order of precedence:
 *
 * - it cannot be started → `spawn_failed`;
 * - the host stopped it (deadline, abort, close) → `timeout`;
 * - stdout passed the cap → `output_too_large` (the group is killed on the spot, buffering stops);
 * - it exited non-zero or died of a signal → `exit_nonzero`, whatever it printed;
 * - otherwise stdout is decoded by the codec alone (`empty_output`, `malformed_response`, or the answer).
 *
 * The decision is taken on **exit**: then whatever is left of the process group is killed, so a hook
 * never leaves orphans and a grandchild holding stdout open cannot delay the answer. `program` is what
 * is actually spawned: the hook itself, or the hook under its PID-namespace wrapper (containment.ts),
 * which reaches descendants that left the group too.
 */
export function startHook(
  options: ResolvedSubprocessOptions,
  request: HookRequest,
  cwd: string,
  signal?: AbortSignal,
  program: { readonly file: string; readonly args: readonly string[] } = options.launch,
): HookProcess {
  const { launch } = options;
  if (signal?.aborted) {
    return settled(failure('timeout', `hook ${launch.display} was not started: the call was aborted`));
  }

  let child: Child;
  try {
    // detached: the hook leads its own process group, so one signal reaches all its descendants.
    child = spawn(program.file, program.args, {
      cwd,
      env: { ...process.env, ...options.dialect.env?.(request), ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    return settled(failure('spawn_failed', `cannot start hook ${launch.display}: ${describe(error)}`));
  }
  // No pid: exec failed (ENOENT, EACCES, EMFILE...) and Node reports why in an 'error' event on the next tick.
  if (child.pid === undefined) return notStarted(child, launch.display, cwd);
  const pgid = child.pid;

  const stdout = new StdoutCapture(options.max_output_bytes);
  const stderr = new StderrCapture(options.max_stderr_bytes);
  const timers = new Set<NodeJS.Timeout>();
  let settle!: (result: InvokeResult) => void;
  const result = new Promise<InvokeResult>((resolve) => (settle = resolve));
  let exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
  let stopped: StopReason | undefined;
  let finished = false;
  let openStreams = 2;
  /** Chunks read from stdout and stderr so far (whether the pipes are still delivering). */
  let chunks = 0;
  let deadline: NodeJS.Timeout | undefined;

  const later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const killGroup = (sig: NodeJS.Signals): void => void signalGroup(pgid, sig);

  const finish = (outcome: InvokeResult): void => {
    if (finished) return;
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    signal?.removeEventListener('abort', onAbort);
    // Our read ends only: a descendant that escaped the group must not keep this call's handles alive.
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    settle(outcome);
  };

  const decide = (): InvokeResult => {
    const logs: HookLogs = { stderr: stderr.text() };
    if (stopped !== undefined) return { ok: false, failure: stopFailure(stopped, launch.display, options.timeout_ms), logs };
    if (stdout.overflowed) {
      return { ok: false, failure: failure('output_too_large', `hook ${launch.display} printed more than ${options.max_output_bytes} bytes on stdout; its process group was killed`), logs };
    }
    if (exit === undefined) {
      return { ok: false, failure: failure('exit_nonzero', `hook ${launch.display} did not exit${stderrExcerpt(logs.stderr ?? '')}`), logs };
    }
    // How the exit status and stdout become an answer is the hook's protocol; the rest is the same for all.
    const decoded = options.dialect.decide({ exit, stdout: stdout.bytes(), stderr: logs.stderr ?? '', request, display: launch.display });
    return decoded.ok ? { ok: true, response: decoded.value, logs } : { ok: false, failure: decoded.failure, logs };
  };

  // decide() runs in stream and timer callbacks, where a throw would take the host down: it cannot
  // throw today (the codec never does), and must not start to.
  const decideSafely = (): InvokeResult => {
    try {
      return decide();
    } catch (error) {
      return { ok: false, failure: failure('internal_error', `deciding the answer of hook ${launch.display} failed: ${error instanceof Error ? error.name : typeof error}`) };
    }
  };

  /*
   * Decide once the pipes have been read for what is already in them. Node reaps every exited child
   * whenever any SIGCHLD arrives, so this hook's exit can be seen before the event loop has polled the
   * pipe its answer already sits in; when the loop is then held past the grace period (a burst of
   * synchronous spawns, a long callback), the grace timer runs first, in the next turn's timers phase,
   * before that turn's poll. So the decision waits for a check phase (setImmediate: after the poll,
   * which reads every ready pipe), and for another while the pipes are still delivering.
   */
  const drainThenFinish = (turns: number): void => {
    const seen = chunks;
    setImmediate(() => {
      if (finished) return;
      if (chunks !== seen && turns > 1) drainThenFinish(turns - 1);
      else finish(decideSafely());
    });
  };

  const maybeFinish = (): void => {
    if (exit !== undefined && openStreams === 0) finish(decideSafely());
  };

  function onAbort(): void {
    stop('aborted');
  }

  function stop(reason: StopReason): void {
    // Once exited, the group is already killed and the decision is at most a grace period away.
    if (finished || exit !== undefined || stopped !== undefined) return;
    stopped = reason;
    clearTimeout(deadline);
    killGroup('SIGTERM');
    later(KILL_DELAY_MS, () => killGroup('SIGKILL'));
    later(KILL_DELAY_MS + STOP_DEADLINE_MS, () => finish(decideSafely()));
  }

  // A hook may exit without reading its request (EPIPE) or close stdin early: its answer still counts.
  child.stdin.on('error', () => {});
  child.stdout.on('data', (chunk: Buffer) => {
    chunks += 1;
    if (stdout.push(chunk)) killGroup('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    chunks += 1;
    stderr.push(chunk);
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.once('close', () => {
      openStreams -= 1;
      maybeFinish();
    });
  }
  // After a successful spawn, 'error' could only report a failed child.kill() (we signal the group
  // ourselves); the exit still decides. The listener keeps such an event from crashing the host.
  child.on('error', () => {});
  child.once('exit', (code, exitSignal) => {
    exit = { code, signal: exitSignal };
    clearTimeout(deadline);
    // The leader is gone: kill whatever it left behind in its group (background jobs, a grandchild
    // holding stdout), then give the pipes a moment to deliver what was already written.
    killGroup('SIGKILL');
    later(EXIT_GRACE_MS, () => drainThenFinish(DRAIN_TURNS));
    maybeFinish();
  });

  deadline = later(options.timeout_ms, () => stop('timeout'));
  signal?.addEventListener('abort', onAbort, { once: true });
  child.stdin.end(options.dialect.encode(request));

  return { result, stop };
}

/** A spawn that produced no process: settle with the reason Node reports (and close any pipes it made). */
function notStarted(child: Child, display: string, cwd: string): HookProcess {
  // Under EMFILE/ENFILE Node returns before creating the pipes, whatever the types say.
  const stdio: ReadonlyArray<{ destroy(): void } | null | undefined> = [child.stdin, child.stdout, child.stderr];
  for (const stream of stdio) stream?.destroy();
  const result = new Promise<InvokeResult>((resolve) => {
    child.once('error', (error) => void spawnFailure(error, display, cwd).then(resolve));
  });
  return { result, stop: () => {} };
}

function settled(failed: HookFailure): HookProcess {
  return { result: Promise.resolve({ ok: false, failure: failed }), stop: () => {} };
}

function failure(code: HookFailure['code'], message: string): HookFailure {
  return { code, message };
}

function stopFailure(reason: StopReason, display: string, timeoutMs: number): HookFailure {
  switch (reason) {
    case 'timeout':
      return failure('timeout', `hook ${display} did not exit within ${timeoutMs} ms; its process group was killed`);
    case 'aborted':
      return failure('timeout', `hook ${display} was aborted by the caller; its process group was killed`);
    case 'closed':
      return failure('timeout', `hook ${display} was stopped because its transport closed; its process group was killed`);
  }
}

async function spawnFailure(error: Error, display: string, cwd: string): Promise<InvokeResult> {
  // spawn reports a missing cwd as ENOENT of the program; say which one it was.
  const detail = (error as NodeJS.ErrnoException).code === 'ENOENT' && !(await isDirectory(cwd))
    ? `working directory ${JSON.stringify(cwd)} does not exist`
    : describe(error);
  return { ok: false, failure: failure('spawn_failed', `cannot start hook ${display}: ${detail}`) };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'not found (ENOENT)' : code === 'EACCES' ? 'not executable (EACCES)' : error.message;
}
