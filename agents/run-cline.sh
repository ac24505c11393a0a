#!/usr/bin/env bash
# Run the real Cline CLI (npm "cline", SDK-based 3.x) offline against the scripted fake OpenAI
# Chat Completions API (provider "openai-compatible"), with file hooks
# <proj>/.clinerules/hooks/PreToolUse and PostToolUse that run the given command.
# Usage: run-cline.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir; CLINE_JS overrides the CLI entry; TIMEOUT (default 60);
#      HOOK_EVENTS (default "PreToolUse PostToolUse"; file names: TaskStart TaskResume TaskCancel
#      TaskComplete TaskError PreToolUse PostToolUse UserPromptSubmit PreCompact SessionShutdown).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-cline.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
CLINE_JS="${CLINE_JS:-$HERE/node_modules/cline/bin/cline}"
[ -f "$CLINE_JS" ] || { echo "cline CLI missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
stop_hub() {
  # Each cline run starts (or reuses) a background "hub" daemon that outlives the CLI. Stop the
  # one this run started: its pid is in the run's discovery record; check its cmdline first.
  local rec pid
  for rec in "$RUN/home/.cline/data/locks/hub/production.json" "$RUN/cfg/data/locks/hub/production.json"; do
    [ -f "$rec" ] || continue
    pid="$(node -e 'try{console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).pid||"")}catch{}' "$rec")"
    if [ -n "$pid" ] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF "$RUN/proj"; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 30); do [ -e "/proc/$pid" ] || break; sleep 0.1; done
    fi
  done
}
cleanup() {
  stop_hub
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home" "$RUN/cfg" "$RUN/proj/.clinerules/hooks" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
for ev in ${HOOK_EVENTS:-PreToolUse PostToolUse}; do
  printf '#!/bin/sh\nexec node %s/lib/tee-hook.mjs %s/hooks.jsonl %s/hookcmd.txt %s\n' "$HERE" "$RUN" "$RUN" "$ev" > "$RUN/proj/.clinerules/hooks/$ev"
  chmod +x "$RUN/proj/.clinerules/hooks/$ev"
done
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  rm -f "$RUN/proj/.clinerules/hooks/"*
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
node "$HERE/fake-openai-chat-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" \
  --shell-tool run_commands --shell-template '{"commands":["$CMD"]}' > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
VERSION="$(node -e 'console.log(require(process.argv[1]).version)' "$(dirname "$CLINE_JS")/../package.json")"
# a private hub port per run (the default 25463 is shared, so a second run would attach to
# another run's hub daemon)
HUB_PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
CENV=(env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 CLINE_HUB_PORT="$HUB_PORT")
( cd "$RUN/proj" && "${CENV[@]}" node "$CLINE_JS" auth -p openai-compatible -k dummy -m fake-model \
    -b "http://127.0.0.1:$PORT/v1" --config "$RUN/cfg" > "$RUN/auth.out" 2>&1 < /dev/null )
T0=$(date +%s.%N)
set +e
( cd "$RUN/proj" && "${CENV[@]}" timeout "${TIMEOUT:-60}" node "$CLINE_JS" --config "$RUN/cfg" --json \
    "Follow the scripted steps." > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli openai-chat --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
s.cli = "cline";
const ev = fs.readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
const rr = ev.filter((e) => e.type === "run_result").pop();
s.final_text = rr ? rr.text : null;
s.cli_stderr_tail = fs.readFileSync(err, "utf8").split("\n").filter((l) => !/trust store|DeprecationWarning|^\s+at |^\s*$/.test(l)).slice(-10).join("\n");
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
