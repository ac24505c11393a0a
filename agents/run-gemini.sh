#!/usr/bin/env bash
# Run the real Gemini CLI offline against the scripted fake Gemini API, with BeforeTool and
# AfterTool hooks (matcher "run_shell_command") set to the given command.
# Usage: run-gemini.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir (path printed as run_dir); GEMINI_JS overrides the CLI entry;
#      HOOK_MATCHER (default run_shell_command); TIMEOUT (default 60);
#      HOOK_EVENTS (default "BeforeTool AfterTool"; any Gemini CLI event names; tool events get
#      HOOK_MATCHER); HOOKS_SCOPE=project|user (default project: <proj>/.gemini/settings.json).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-gemini.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
GEMINI_JS="${GEMINI_JS:-$HERE/node_modules/@google/gemini-cli/bundle/gemini.js}"
MATCHER="${HOOK_MATCHER:-run_shell_command}"
[ -f "$GEMINI_JS" ] || { echo "gemini CLI missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home/.gemini" "$RUN/proj/.gemini" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
TEE="node $HERE/lib/tee-hook.mjs $RUN/hooks.jsonl $RUN/hookcmd.txt"
USER_SETTINGS='{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"security":{"auth":{"selectedType":"gemini-api-key"}}}'
HOOKS_JSON="$(node -e '
const [m, tee, evs] = process.argv.slice(1);
const toolEv = /^(BeforeTool|AfterTool)$/;
const hooks = {};
for (const ev of evs.split(/[ ,]+/).filter(Boolean)) {
  const g = { hooks: [{ type: "command", name: ev, command: `${tee} ${ev}`, timeout: 30000 }] };
  if (toolEv.test(ev)) g.matcher = m;
  hooks[ev] = [g];
}
process.stdout.write(JSON.stringify(hooks));
' "$MATCHER" "$TEE" "${HOOK_EVENTS:-BeforeTool AfterTool}")"
if [ "${HOOKS_SCOPE:-project}" = user ]; then
  node -e 'const s=JSON.parse(process.argv[1]); s.hooks=JSON.parse(process.argv[2]); console.log(JSON.stringify(s,null,2))' "$USER_SETTINGS" "$HOOKS_JSON" > "$RUN/home/.gemini/settings.json"
  echo '{}' > "$RUN/proj/.gemini/settings.json"
else
  printf '%s\n' "$USER_SETTINGS" > "$RUN/home/.gemini/settings.json"
  node -e 'console.log(JSON.stringify({hooks: JSON.parse(process.argv[1])}, null, 2))' "$HOOKS_JSON" > "$RUN/proj/.gemini/settings.json"
fi
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  echo "{}" > "$RUN/proj/.gemini/settings.json"; node -e 'const s=JSON.parse(process.argv[1]); console.log(JSON.stringify(s,null,2))' "$USER_SETTINGS" > "$RUN/home/.gemini/settings.json"
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
node "$HERE/fake-gemini-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
VERSION="$(node -e 'console.log(require(process.argv[1]).version)' "$(dirname "$GEMINI_JS")/../package.json")"
T0=$(date +%s.%N)
set +e
# RUN_TRUST_WORKSPACE="" leaves GEMINI_CLI_TRUST_WORKSPACE out: the folder must then be trusted in
# $HOME/.gemini/trustedFolders.json (headless, Gemini CLI refuses to run in an untrusted folder).
TRUST="${RUN_TRUST_WORKSPACE-true}"
( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 \
    ${TRUST:+GEMINI_CLI_TRUST_WORKSPACE="$TRUST"} \
    GEMINI_API_KEY=dummy GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
    timeout "${TIMEOUT:-60}" node "$GEMINI_JS" -p "Follow the scripted steps." \
      --output-format json ${GEMINI_FLAGS:---approval-mode yolo} \
      > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli gemini --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
let r = null; try { r = JSON.parse(fs.readFileSync(out, "utf8")); } catch {}
s.final_text = r ? (r.response ?? null) : null;
if (r && r.error) s.cli_error = r.error;
s.cli_stderr_tail = fs.readFileSync(err, "utf8").split("\n").filter((l) => /hook|Hook|blocked|trust|Error/.test(l)).slice(-12).join("\n");
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
