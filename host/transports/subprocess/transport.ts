import type { HookRequest } from '../../contract/request.js';
import type { InvokeContext, InvokeResult, Transport } from '../../runner/transport.js';
import { checkStartable, isDirectory } from './check.js';
import { resolveSubprocessOptions, type SubprocessOptions } from './options.js';
import { startHook, type HookProcess } from './run.js';

/**
 * A hook that is a program: basis writes one JSON request to its stdin and reads one JSON response
 * from its stdout; the exit code is only a liveness signal. Each call spawns the program afresh in
 * its own process group, with a deadline and caps, and kills that whole group when the call ends.
 * POSIX only (process groups).
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
        // Checked after the await too: close() may have run meanwhile, and must not miss a hook started after it.
        if (closed) return refused;
        // A chain budget may leave the hook less than its own timeout: it gets whichever is shorter.
        const deadline = context.deadline_ms;
        const options = deadline !== undefined && deadline < resolved.timeout_ms ? { ...resolved, timeout_ms: Math.max(1, Math.ceil(deadline)) } : resolved;
        const hook = startHook(options, request, cwd, context.signal);
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
