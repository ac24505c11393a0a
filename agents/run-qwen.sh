#!/usr/bin/env bash
# Run the real Qwen Code CLI offline (auth type "openai") against the scripted fake OpenAI Chat
# Completions API, with PreToolUse and PostToolUse hooks (matcher "run_shell_command").
# Usage: run-qwen.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir; QWEN_JS overrides the CLI entry; TIMEOUT (default 60);
#      HOOK_MATCHER (default run_shell_command); HOOK_EVENTS (default "PreToolUse PostToolUse");
#      QWEN_FLAGS (default --yolo); HOOK_TIMEOUT (default 30000: Qwen's command-hook timeout is in
#      MILLISECONDS; a Claude-style "timeout": 30 kills the hook after 30 ms and the tool runs).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-qwen.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
QWEN_JS="${QWEN_JS:-$HERE/node_modules/@qwen-code/qwen-code/cli.js}"
MATCHER="${HOOK_MATCHER:-run_shell_command}"
[ -f "$QWEN_JS" ] || { echo "qwen CLI missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home/.qwen" "$RUN/proj/.qwen" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
TEE="node $HERE/lib/tee-hook.mjs $RUN/hooks.jsonl $RUN/hookcmd.txt"
echo '{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true}}' > "$RUN/home/.qwen/settings.json"
node -e '
const [m, tee, evs, to] = process.argv.slice(1);
const toolEv = /^(PreToolUse|PostToolUse|PostToolUseFailure|PermissionRequest)$/;
const hooks = {};
for (const ev of evs.split(/[ ,]+/).filter(Boolean)) {
  const g = { hooks: [{ type: "command", command: `${tee} ${ev}`, timeout: Number(to) }] };
  if (toolEv.test(ev)) g.matcher = m;
  hooks[ev] = [g];
}
process.stdout.write(JSON.stringify({ hooks }, null, 2));
' "$MATCHER" "$TEE" "${HOOK_EVENTS:-PreToolUse PostToolUse}" "${HOOK_TIMEOUT:-30000}" > "$RUN/proj/.qwen/settings.json"
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  rm -f "$RUN/proj/.qwen/settings.json"
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
node "$HERE/fake-openai-chat-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" --shell-tool run_shell_command > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
VERSION="$(node -e 'console.log(require(process.argv[1]).version)' "$(dirname "$QWEN_JS")/package.json")"
T0=$(date +%s.%N)
set +e
( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 \
    OPENAI_API_KEY=dummy OPENAI_BASE_URL="http://127.0.0.1:$PORT/v1" OPENAI_MODEL=fake-model \
    timeout "${TIMEOUT:-60}" node "$QWEN_JS" "Follow the scripted steps." --auth-type openai \
      --output-format json ${QWEN_FLAGS:---yolo} \
      > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli openai-chat --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
s.cli = "qwen";
let r = null; try { r = JSON.parse(fs.readFileSync(out, "utf8")); } catch {}
const res = Array.isArray(r) ? r.filter((e) => e.type === "result").pop() : null;
s.final_text = res ? res.result ?? null : null;
s.cli_stderr_tail = fs.readFileSync(err, "utf8").slice(-1500);
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
