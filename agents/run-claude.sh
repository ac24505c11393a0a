#!/usr/bin/env bash
# Run the real Claude Code CLI offline against the scripted fake Anthropic API, with
# PreToolUse and PostToolUse hooks (matcher "Bash") set to the given command.
# Usage: run-claude.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir (path printed as run_dir); CLAUDE_BIN overrides the binary;
#      HOOK_MATCHER (default Bash); TIMEOUT (default 60);
#      HOOK_EVENTS (default "PreToolUse PostToolUse"; any Claude Code event names, the hook
#      command is installed on each; tool events get HOOK_MATCHER);
#      CLAUDE_FLAGS (default --dangerously-skip-permissions; e.g. "--allowedTools Bash");
#      RUN_IS_SANDBOX (default 1; IS_SANDBOX=1 lets --dangerously-skip-permissions run as root;
#      "yes" or "true" do not).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-claude.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
CLAUDE_BIN="${CLAUDE_BIN:-$HERE/node_modules/@anthropic-ai/claude-code-linux-x64/claude}"
MATCHER="${HOOK_MATCHER:-Bash}"
[ -x "$CLAUDE_BIN" ] || { echo "claude binary missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home" "$RUN/proj/.claude" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
TEE="node $HERE/lib/tee-hook.mjs $RUN/hooks.jsonl $RUN/hookcmd.txt"
node -e '
const [m, tee, evs] = process.argv.slice(1);
const toolEv = /^(PreToolUse|PostToolUse|PostToolUseFailure|PermissionRequest|PermissionDenied)$/;
const hooks = {};
for (const ev of evs.split(/[ ,]+/).filter(Boolean)) {
  const g = { hooks: [{ type: "command", command: `${tee} ${ev}`, timeout: 30 }] };
  if (toolEv.test(ev)) g.matcher = m;
  hooks[ev] = [g];
}
process.stdout.write(JSON.stringify({ hooks }, null, 2));
' "$MATCHER" "$TEE" "${HOOK_EVENTS:-PreToolUse PostToolUse}" > "$RUN/proj/.claude/settings.json"
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  rm -f "$RUN/proj/.claude/settings.json"
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
node "$HERE/fake-claude-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
VERSION="$("$CLAUDE_BIN" --version 2>/dev/null | awk '{print $1}')"
T0=$(date +%s.%N)
set +e
( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 \
    IS_SANDBOX="${RUN_IS_SANDBOX-1}" \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" ANTHROPIC_API_KEY=dummy \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
    DISABLE_ERROR_REPORTING=1 \
    timeout "${TIMEOUT:-60}" "$CLAUDE_BIN" -p "Follow the scripted steps." \
      --output-format json ${CLAUDE_FLAGS:---dangerously-skip-permissions} \
      > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli claude --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
let r = null; try { r = JSON.parse(fs.readFileSync(out, "utf8")); } catch {}
s.final_text = r ? r.result : null;
s.cli_permission_denials = r ? r.permission_denials : null;
if (!r) s.cli_stderr_tail = fs.readFileSync(err, "utf8").slice(-2000);
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
