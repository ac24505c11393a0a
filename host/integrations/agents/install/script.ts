import { AGENT_NAMES } from '../names.js';
import { agentDialect } from '../registry.js';

/** Where install writes the client script, relative to the project (or the home directory for `--scope user`). */
export const CLIENT_SCRIPT = '.basis-hooks/hook.sh';

/** Marks every settings entry install writes, so uninstall and a second install find exactly ours. */
export const OURS = '.basis-hooks/hook.sh';

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Options of {@link clientScript}. */
export interface ClientScriptOptions {
  /** The config for the in-process fallback, relative to the script's directory (or absolute). */
  readonly config: string;
  /** The socket to reach, when not the default. */
  readonly socket?: string;
  /** How to start basis-hooks for the fallback (default `npx --no-install basis-hooks`). */
  readonly command: string;
  /** The longest wait for the server's answer, seconds. */
  readonly timeoutSeconds: number;
}

/**
 * The command-hook client every agent runs, as a POSIX shell script (committable: no absolute path
 * unless one was given). Per event:
 *
 * 1. the event goes to the resident server with `curl --unix-socket` (a ~5 ms client); its answer is
 *    printed as the agent reads it (status 200: stdout, exit 0; 409: stderr, exit 2);
 * 2. no server (curl cannot connect, or there is no curl): the chain runs in-process
 *    (`basis-hooks hook --agent X --config … --no-server`);
 * 3. anything else — the fallback itself failing to start or crashing, a broken answer — prints the
 *    agent's own block (a deny JSON, `{"cancel": true}` for Cline, exit 2 with a reason where that is
 *    the agent's block). No path ends in the agent's fail-open (exit 1, 127, a timeout's silence).
 */
export function clientScript(options: ClientScriptOptions): string {
  const reason = 'the basis-hooks server did not answer and the in-process fallback could not run';
  const blocks = AGENT_NAMES.map((agent) => {
    const reply = agentDialect(agent).block(reason);
    const action =
      reply.exit === 0
        ? `printf '%s\\n' ${shellQuote(reply.stdout.trim())}; exit 0`
        : `printf '%s\\n' ${shellQuote(reply.stderr.trim())} >&2; exit ${String(reply.exit)}`;
    return `    ${agent}) ${action} ;;`;
  });
  const config = options.config.startsWith('/') ? shellQuote(options.config) : `"$here"/${shellQuote(options.config)}`;
  const socket = options.socket === undefined ? '' : options.socket;
  return `#!/bin/sh
# basis-hooks command-hook client, written by "basis-hooks install" (commit it; install rewrites it).
# Usage: sh ${CLIENT_SCRIPT} <agent>   (the agent's hook event on stdin)
# Sends the event to the resident server (basis-hooks serve); with no server, runs the chain here;
# when neither can answer, prints the agent's own block. Every failure blocks.
agent="$1"
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
sock="\${BASIS_HOOKS_SOCKET:-${socket}}"
if [ -z "$sock" ]; then
  if [ -n "$XDG_RUNTIME_DIR" ]; then sock="$XDG_RUNTIME_DIR/basis-hooks/hooks.sock"; else sock="\${TMPDIR:-/tmp}/basis-hooks-$(id -u)/hooks.sock"; fi
fi
block() {
  case "$agent" in
${blocks.join('\n')}
    *) printf '%s\\n' 'basis-hooks: unknown agent' >&2; exit 2 ;;
  esac
}
event=$(cat)
out=$(printf '%s' "$event" | curl -sS --fail-with-body --connect-timeout 1 --max-time ${String(options.timeoutSeconds)} --unix-socket "$sock" \\
  -H 'Content-Type: application/json' --data-binary @- "http://localhost/v1/hook/$agent" 2>/dev/null)
rc=$?
if [ $rc -eq 0 ]; then printf '%s' "$out"; exit 0; fi
if [ $rc -eq 22 ]; then printf '%s\\n' "\${out:-basis-hooks: blocked}" >&2; exit 2; fi
if [ $rc -eq 7 ] || [ $rc -eq 127 ] || [ $rc -eq 126 ]; then
  out=$(printf '%s' "$event" | ${options.command} hook --agent "$agent" --config ${config} --no-server)
  rc=$?
  if [ $rc -eq 0 ]; then printf '%s' "$out"; exit 0; fi
  if [ $rc -eq 2 ]; then exit 2; fi
fi
block
`;
}
