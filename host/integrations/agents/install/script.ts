import { AGENT_NAMES, type AgentName } from '../names.js';
import { agentDialect } from '../registry.js';
import { TRACE_SH } from '../trace-env.js';

/** Where install writes the client script, relative to the project (or the home directory for `--scope user`). */
export const CLIENT_SCRIPT = '.basis-hooks/hook.sh';

/** Marks every settings entry install writes, so uninstall and a second install find exactly ours. */
export const OURS = '.basis-hooks/hook.sh';

/** The reason every block of the installed client carries (one text: the script cannot escape JSON at run time). */
export const CLIENT_BLOCK_REASON = 'basis-hooks could not decide this call (no usable answer from the basis-hooks server, and the in-process fallback could not run): blocked';

/** The reason the settings command gives when it cannot find the client script at all. */
export const MISSING_SCRIPT_REASON = `basis-hooks: ${CLIENT_SCRIPT} was not found (commit it with the settings, or run basis-hooks install again): blocked`;

/** A word for `sh`: as it is when it needs no quoting, else in single quotes. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The shell statements that print an agent's own block for a fixed reason and exit (never its fail-open path). */
export function blockStatements(agent: AgentName, reason: string): string {
  const reply = agentDialect(agent).block(reason);
  return reply.exit === 0
    ? `printf '%s\\n' ${shellQuote(reply.stdout.trim())}; exit 0`
    : `printf '%s\\n' ${shellQuote(reply.stderr.trim())} >&2; exit ${String(reply.exit)}`;
}

/** The agents whose every block is exit 2 (Windsurf, Kiro): a 409 from the server is their answer. */
function exit2Agents(): readonly AgentName[] {
  return AGENT_NAMES.filter((agent) => agentDialect(agent).block('x').exit === 2);
}

/** The agents whose answer is always JSON: an empty one is a broken client (Cline, Cursor). */
function jsonOnlyAgents(): readonly AgentName[] {
  return AGENT_NAMES.filter((agent) => !agentDialect(agent).capabilities.silentAllow);
}

/** Options of {@link clientScript}. */
export interface ClientScriptOptions {
  /** The config for the in-process fallback, relative to the script's directory (or absolute). */
  readonly config: string;
  /** The socket to reach, when not the default. */
  readonly socket?: string;
  /**
   * How to start basis-hooks for the fallback (`install --command`). Default: the bundled Node client
   * of the basis-hooks package installed in the project (found from the script's directory, then from
   * the hook's working directory, up to `/`), else `basis-hooks` on `PATH`, else `npx --no-install`.
   */
  readonly command?: string;
  /** The longest wait for the server's answer, seconds. */
  readonly timeoutSeconds: number;
}

/**
 * The in-process fallback's launcher: `--command` as given, or the search for the installed package.
 * The bundled client (`dist/cli/hook/main.js`, one file per cold start) is what makes a cold start
 * without a server no slower than `basis-hooks claude-code`; `npx` alone costs seconds per event.
 */
function launcher(command: string | undefined): string {
  if (command !== undefined) return `local_hook() { ${command} hook "$@"; }`;
  return `local_hook() {
  # The common case first, without a fork: the package installed in the project the script sits in.
  if [ -f "$here/../node_modules/basis-hooks/dist/cli/hook/main.js" ]; then node "$here/../node_modules/basis-hooks/dist/cli/hook/main.js" "$@"; return; fi
  for start in "$here/.." "$PWD"; do
    d=$(CDPATH= cd -- "$start" 2>/dev/null && pwd) || continue
    while :; do
      if [ -f "$d/node_modules/basis-hooks/dist/cli/hook/main.js" ]; then node "$d/node_modules/basis-hooks/dist/cli/hook/main.js" "$@"; return; fi
      if [ -x "$d/node_modules/.bin/basis-hooks" ]; then "$d/node_modules/.bin/basis-hooks" hook "$@"; return; fi
      [ -n "$d" ] || break
      d=\${d%/*}
    done
  done
  if command -v basis-hooks >/dev/null 2>&1; then basis-hooks hook "$@"; return; fi
  npx --no-install basis-hooks hook "$@"
}`;
}

/**
 * The command-hook client every agent runs, as a POSIX shell script (committable: no absolute path
 * unless one was given). Per event:
 *
 * 1. the event goes to the resident server with `curl --unix-socket` (a ~5 ms client), with the agent's
 *    trace context (`TRACEPARENT`/`TRACESTATE`, see trace-env.ts) as headers; its answer is
 *    printed as the agent reads it (status 200: stdout, exit 0; 409, for the agents whose block is
 *    exit 2: stderr, exit 2);
 * 2. no server (no socket file — then the event goes to the fallback straight from stdin, with no
 *    curl started —, or curl cannot connect, or there is no curl): the chain runs in-process
 *    (`basis-hooks hook --agent X --config … --no-server`, the project's own install found first);
 * 3. anything else — the server refusing, an empty answer where the agent needs JSON, the fallback
 *    failing to start or crashing, an exit 2 from an agent that ignores it (Cline) — prints the agent's
 *    own block (a deny JSON, `{"cancel": true}` for Cline, exit 2 with a reason where that is the
 *    agent's block). No path ends in the agent's fail-open (exit 1, 127, a timeout's silence, an
 *    exit 2 that Cline ignores).
 */
export function clientScript(options: ClientScriptOptions): string {
  const blocks = AGENT_NAMES.map((agent) => `    ${agent}) ${blockStatements(agent, CLIENT_BLOCK_REASON)} ;;`);
  const config = options.config.startsWith('/') ? shellQuote(options.config) : `"$here"/${shellQuote(options.config)}`;
  const socket = options.socket === undefined ? '' : options.socket;
  return `#!/bin/sh
# basis-hooks command-hook client, written by "basis-hooks install" (commit it; install rewrites it).
# Usage: sh ${CLIENT_SCRIPT} <agent>   (the agent's hook event on stdin)
# Sends the event to the resident server (basis-hooks serve); with no server, runs the chain here;
# when neither can answer, prints the agent's own block. Every failure blocks.
agent="$1"
# The script's directory, as invoked (no fork: each one costs a cold start's milliseconds).
case "$0" in */*) here="\${0%/*}" ;; *) here=. ;; esac
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
# The agents whose block is exit 2, and those whose every answer is JSON (empty = broken).
case "$agent" in ${exit2Agents().join('|')}) exit2=1 ;; *) exit2=0 ;; esac
case "$agent" in ${jsonOnlyAgents().join('|')}) json_only=1 ;; *) json_only=0 ;; esac
${launcher(options.command)}
# The in-process fallback, on the event as it comes on stdin; its failures block too.
fallback() {
  out=$(local_hook --agent "$agent" --config ${config} --no-server)
  rc=$?
  if [ $rc -eq 0 ] && { [ -n "$out" ] || [ $json_only -eq 0 ]; }; then printf '%s' "$out"; exit 0; fi
  if [ $rc -eq 2 ] && [ $exit2 -eq 1 ]; then exit 2; fi
  block
}
# No socket file: no server. The event goes to the fallback straight from stdin (no curl, no copy).
[ -S "$sock" ] || fallback
event=$(cat)
# The agent's trace (TRACEPARENT, as Claude Code sets it for its hooks while it traces), for the server's spans.
${TRACE_SH}
out=$(printf '%s' "$event" | curl -sS --fail-with-body --connect-timeout 1 --max-time ${String(options.timeoutSeconds)} --unix-socket "$sock" \\
  -H 'Content-Type: application/json' \${tp:+-H "$tp"} \${ts:+-H "$ts"} --data-binary @- "http://localhost/v1/hook/$agent" 2>/dev/null)
rc=$?
if [ $rc -eq 0 ] && { [ -n "$out" ] || [ $json_only -eq 0 ]; }; then printf '%s' "$out"; exit 0; fi
# An HTTP error: the 409 of an exit-2 agent is its answer; for every other agent it is a refusal.
if [ $rc -eq 22 ] && [ $exit2 -eq 1 ]; then printf '%s\\n' "\${out:-basis-hooks: blocked}" >&2; exit 2; fi
# No server behind the socket file (a stale one), or no curl: the fallback, in a subshell of the pipe
# (its exit is the script's).
if [ $rc -eq 7 ] || [ $rc -eq 127 ] || [ $rc -eq 126 ]; then printf '%s' "$event" | fallback; exit $?; fi
block
`;
}

/**
 * The command an agent's settings run: the client script, found where the agent can find it, and —
 * when it is not there (not committed, or a hook started elsewhere) — the agent's own block rather
 * than the shell's "cannot open" (exit 2 under dash, 127 under bash: Cline and, with 127, most agents
 * would let the call through).
 *
 * - `projectVar`: the agent's project-directory variable (`$CLAUDE_PROJECT_DIR`, `$GEMINI_PROJECT_DIR`…);
 * - `walk`: the script is looked for from the hook's working directory upwards (agents whose hooks
 *   run in the session's directory, which may be below the project root);
 * - `plain`: `sh .basis-hooks/hook.sh <agent>`, for agents checked against documentation only, whose
 *   command field may not go through a shell (Cursor, Windsurf, Kiro).
 */
export function settingsCommand(agent: AgentName, where: { readonly kind: 'home' } | { readonly kind: 'var'; readonly name: string } | { readonly kind: 'walk' } | { readonly kind: 'plain' }): string {
  const missing = blockStatements(agent, MISSING_SCRIPT_REASON);
  switch (where.kind) {
    case 'plain':
      return `sh ${CLIENT_SCRIPT} ${agent}`;
    case 'home':
      return `[ -f "$HOME/${CLIENT_SCRIPT}" ] && exec sh "$HOME/${CLIENT_SCRIPT}" ${agent}; ${missing}`;
    case 'var':
      // \${VAR}, not $VAR: Gemini CLI and Qwen Code paste a shell-quoted path over a bare
      // $GEMINI_PROJECT_DIR / $CLAUDE_PROJECT_DIR in the command text, and those quotes inside our
      // double quotes would break a path with a space; the braced form is left to the shell.
      return `[ -f "\${${where.name}}/${CLIENT_SCRIPT}" ] && exec sh "\${${where.name}}/${CLIENT_SCRIPT}" ${agent}; ${missing}`;
    case 'walk':
      return `d=$PWD; until [ -f "$d/${CLIENT_SCRIPT}" ] || [ -z "$d" ]; do d=\${d%/*}; done; [ -n "$d" ] && exec sh "$d/${CLIENT_SCRIPT}" ${agent}; ${missing}`;
  }
}
