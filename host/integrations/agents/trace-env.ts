/*
 * The trace an agent hands its hook process, passed on to the resident server. OpenTelemetry's
 * environment carrier is `TRACEPARENT` / `TRACESTATE`; Claude Code sets `TRACEPARENT` for the hooks it
 * runs while its own tracing is on (and CI systems set it for what they start). The command client
 * (`basis-hooks hook --agent`, and the installed `.basis-hooks/hook.sh`) sends them as the W3C
 * `traceparent` / `tracestate` headers, and the server's chain span continues that trace.
 *
 * Only values that are safe as an HTTP header are sent, and nothing else is checked here: the server
 * parses them (a malformed one starts a new trace there). A value that could not be sent — a control
 * character, something Node or curl would refuse, something the server's header parser could reject —
 * is left out: it must never cost the call its answer. install/script.ts applies the same rule in sh
 * (TRACE_SH); a test holds the two to each other.
 */

/** What `TRACEPARENT` may hold to be sent: W3C's version-00 alphabet (lower-case hex and `-`), at most 512 characters. */
export const TRACEPARENT_SAFE = /^[0-9a-f-]{1,512}$/;
/** What `TRACESTATE` may hold to be sent: W3C's key and value alphabets without tabs, at most 1024 characters. */
export const TRACESTATE_SAFE = /^[A-Za-z0-9_*/@=,.:;+ -]{1,1024}$/;

/** The `traceparent` / `tracestate` headers for the trace in `env`, when it holds one that can be sent. */
export function traceHeaders(env: NodeJS.ProcessEnv = process.env): { traceparent?: string; tracestate?: string } {
  const parent = env['TRACEPARENT'];
  if (parent === undefined || !TRACEPARENT_SAFE.test(parent)) return {};
  const state = env['TRACESTATE'];
  return state !== undefined && TRACESTATE_SAFE.test(state) ? { traceparent: parent, tracestate: state } : { traceparent: parent };
}

/**
 * The same rule in POSIX sh, for the installed client: sets `tp` / `ts` to the curl `-H` arguments'
 * values (`traceparent: …`, `tracestate: …`) or leaves them empty. Character classes are spelled out
 * (no ranges: their meaning depends on the locale's collation).
 */
export const TRACE_SH = `tp=; ts=
case "\${TRACEPARENT:-}" in ''|*[!0123456789abcdef-]*) ;; *) [ \${#TRACEPARENT} -le 512 ] && tp="traceparent: $TRACEPARENT" ;; esac
if [ -n "$tp" ]; then
  case "\${TRACESTATE:-}" in ''|*[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_*/@=,.:\\;+\\ -]*) ;; *) [ \${#TRACESTATE} -le 1024 ] && ts="tracestate: $TRACESTATE" ;; esac
fi`;
