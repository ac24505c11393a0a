import type { HookFailure } from '../../contract/failure.js';
import type { HookRequest } from '../../contract/request.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { checkStartable, isDirectory, resolveProgram } from './check.js';
import { contained, containment } from './containment.js';
import { resolveSubprocessOptions, type ResolvedSubprocessOptions, type SubprocessOptions } from './options.js';
import { startHook, type HookProcess } from './run.js';

/**
 * What to spawn for one call: the hook's own program, or — where the platform allows — the hook
 * under a PID namespace that dies with it (containment.ts). Under the wrapper the program is
 * resolved here first, so a hook that cannot be started is still `spawn_failed`.
 */
async function programFor(options: ResolvedSubprocessOptions, cwd: string): Promise<{ readonly file: string; readonly args: readonly string[] } | { readonly ok: false; readonly failure: HookFailure }> {
  const how = await containment();
  if (how.kind === 'process-group') return options.launch;
  // A missing working directory is spawn's to report (with the directory named): let it.
  if (!(await isDirectory(cwd))) return options.launch;
  const program = await resolveProgram(options, cwd);
  if (!program.ok) return { ok: false, failure: { code: 'spawn_failed', message: `cannot start hook ${options.launch.display}: ${program.detail}` } };
  return contained(how, program.file, options.launch.args);
}

/**
 * A hook that is a program: basis writes one JSON request to its stdin and reads one JSON response
 * from its stdout; the exit code is only a liveness signal. Each call spawns the program afresh in
 * its own process group — on Linux also its own PID namespace — with a deadline and caps, and kills
 * that whole group (namespace) when the call ends. POSIX only (process groups).
 *
 * Throws an `OptionsError` (`invalid_options`) at construction for options no hook could run with.
 *
 * @example
 * const guard = subprocessTransport({ command: ['python3', 'hooks/no-force-push.py'], timeout_ms: 2000 });
 * await guard.check?.(); // rejects with HookError('spawn_failed') when python3 is not on PATH
 * const runner = new HookRunner([{ name: 'no-force-push', event: 'pre_tool_use', tools: ['shell'], transport: guard }]);
 *
 * // The string form runs through `sh -c`:
 * subprocessTransport({ command: 'jq -c \'{decision: "allow"}\'' });
 */
export function subprocessTransport(options: SubprocessOptions): Transport {
  const resolved = resolveSubprocessOptions(options);
  // Probe now (once per process, a few ms), so the first call does not wait for it.
  void containment();
  const running = new Set<HookProcess>();
  let closed = false;
  const refused: InvokeResult = {
    ok: false,
    failure: { code: 'spawn_failed', message: `hook ${resolved.launch.display} was not started: its transport is closed` },
  };

  return {
    kind: 'subprocess',

    async invoke(request: HookRequest, context: InvokeContext): Promise<InvokeResult> {
      try {
        const cwd = resolved.cwd ?? ((await isDirectory(request.workspace)) ? request.workspace : process.cwd());
        const program = await programFor(resolved, cwd);
        if ('failure' in program) return program;
        // Checked after the awaits too: close() may have run meanwhile, and must not miss a hook started after it.
        if (closed) return refused;
        // A chain budget may leave the hook less than its own timeout: it gets whichever is shorter.
        const deadline = context.deadline_ms;
        const options = deadline !== undefined && deadline < resolved.timeout_ms ? { ...resolved, timeout_ms: Math.max(1, Math.ceil(deadline)) } : resolved;
        const hook = startHook(options, request, cwd, context.signal, program);
        running.add(hook);
        try {
          return await hook.result;
        } finally {
          running.delete(hook);
        }
      } catch (error) {
        // startHook resolves for every misbehaviour of the hook; reaching here is a basis-hooks bug.
        return { ok: false, failure: { code: 'internal_error', message: `subprocess transport failed: ${String(error)}` } };
      }
    },

    check: () => checkStartable(resolved),

    /** Kill every hook still running (each call then settles as a `timeout` failure); later calls are refused. */
    async close(): Promise<void> {
      closed = true;
      const inFlight = [...running];
      for (const hook of inFlight) hook.stop('closed');
      await Promise.all(inFlight.map((hook) => hook.result));
    },
  };
}
