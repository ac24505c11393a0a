#!/usr/bin/env bash
# Run the real GitHub Copilot CLI offline (COPILOT_OFFLINE=true, BYOK provider type "anthropic")
# against the scripted fake Anthropic Messages API, with repo hooks in .github/hooks/guard.json.
# Usage: run-copilot.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir; COPILOT_JS overrides the CLI entry; TIMEOUT (default 60);
#      HOOK_EVENTS (default "preToolUse postToolUse"; camelCase names get the camelCase payload,
#      PascalCase names such as "PreToolUse PostToolUse" get the Claude-compatible payload);
#      HOOK_MATCHER (optional matcher for tool events); COPILOT_FLAGS (default --allow-all-tools).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-copilot.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
COPILOT_JS="${COPILOT_JS:-$HERE/node_modules/@github/copilot/npm-loader.js}"
[ -f "$COPILOT_JS" ] || { echo "copilot CLI missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home" "$RUN/proj/.github/hooks" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
TEE="node $HERE/lib/tee-hook.mjs $RUN/hooks.jsonl $RUN/hookcmd.txt"
node -e '
const [m, tee, evs] = process.argv.slice(1);
const hooks = {};
for (const ev of evs.split(/[ ,]+/).filter(Boolean)) {
  const h = { type: "command", bash: `${tee} ${ev}`, timeoutSec: 30 };
  if (m && /tool/i.test(ev)) h.matcher = m;
  hooks[ev] = [h];
}
process.stdout.write(JSON.stringify({ version: 1, hooks }, null, 2));
' "${HOOK_MATCHER:-}" "$TEE" "${HOOK_EVENTS:-preToolUse postToolUse}" > "$RUN/proj/.github/hooks/guard.json"
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  rm -f "$RUN/proj/.github/hooks/guard.json"
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" COPILOT_HOME="$RUN/home/.copilot" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
node "$HERE/fake-claude-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" --shell-tool bash > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
VERSION="$(node -e 'console.log(require(process.argv[1]).version)' "$(dirname "$COPILOT_JS")/package.json")"
T0=$(date +%s.%N)
set +e
( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 \
    COPILOT_OFFLINE=true COPILOT_PROVIDER_TYPE=anthropic \
    COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$PORT" COPILOT_PROVIDER_API_KEY=dummy \
    COPILOT_MODEL=claude-sonnet-4.5 COPILOT_ALLOW_ALL="${RUN_ALLOW_ALL-true}" \
    timeout "${TIMEOUT:-60}" node "$COPILOT_JS" -p "Follow the scripted steps." \
      ${COPILOT_FLAGS:---allow-all-tools} --disable-client-telemetry \
      > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli claude --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
s.cli = "copilot";
s.final_text = fs.readFileSync(out, "utf8").trim().split("\n\n\n")[0].split("\n").slice(-1)[0] || null;
s.cli_stdout = fs.readFileSync(out, "utf8").slice(0, 1500);
s.cli_stderr_tail = fs.readFileSync(err, "utf8").slice(-1500);
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
