#!/usr/bin/env bash
# Run the real Codex CLI (codex exec) offline against the scripted fake Responses API, with
# PreToolUse and PostToolUse hooks (matcher "Bash") set to the given command.
# Usage: run-codex.sh '<hook command>' [scenario.json]
# Env: KEEP=1 keeps the run dir (path printed as run_dir); CODEX_BIN overrides the binary;
#      HOOK_MATCHER (default Bash); TIMEOUT (default 60);
#      HOOK_EVENTS (default "PreToolUse PostToolUse"; tool events get HOOK_MATCHER);
#      HOOKS_SCOPE=home|project|inline (default home: $CODEX_HOME/hooks.json; project:
#      <proj>/.codex/hooks.json; inline: [hooks] tables in $CODEX_HOME/config.toml);
#      CODEX_FLAGS (default "--dangerously-bypass-approvals-and-sandbox --dangerously-bypass-hook-trust").
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOOK_CMD="${1:?usage: run-codex.sh '<hook command>' [scenario.json]}"
SCENARIO="${2:-$HERE/scenarios/block-then-echo.json}"
CODEX_BIN="${CODEX_BIN:-$HERE/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex}"
MATCHER="${HOOK_MATCHER:-Bash}"
[ -x "$CODEX_BIN" ] || { echo "codex binary missing: run npm install in $HERE" >&2; exit 3; }
RUN="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home" "$RUN/codex" "$RUN/proj/victim"
printf '%s\n' "$HOOK_CMD" > "$RUN/hookcmd.txt"
TEE="node $HERE/lib/tee-hook.mjs $RUN/hooks.jsonl $RUN/hookcmd.txt"
node "$HERE/fake-codex-model.mjs" --scenario "$SCENARIO" --log "$RUN/requests.jsonl" --port-file "$RUN/port" > "$RUN/server.out" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$RUN/port" ] && break; sleep 0.1; done
PORT="$(cat "$RUN/port")"
cat > "$RUN/codex/config.toml" <<TOML
model = "gpt-fake"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:$PORT/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
TOML
HOOKS_JSON="$(node -e '
const [m, tee, evs] = process.argv.slice(1);
const toolEv = /^(PreToolUse|PostToolUse|PermissionRequest)$/;
const hooks = {};
for (const ev of evs.split(/[ ,]+/).filter(Boolean)) {
  const g = { hooks: [{ type: "command", command: `${tee} ${ev}`, timeout: 30 }] };
  if (toolEv.test(ev)) g.matcher = m;
  hooks[ev] = [g];
}
process.stdout.write(JSON.stringify({ hooks }, null, 2));
' "$MATCHER" "$TEE" "${HOOK_EVENTS:-PreToolUse PostToolUse}")"
case "${HOOKS_SCOPE:-home}" in
  home) printf '%s\n' "$HOOKS_JSON" > "$RUN/codex/hooks.json" ;;
  project) mkdir -p "$RUN/proj/.codex"; printf '%s\n' "$HOOKS_JSON" > "$RUN/proj/.codex/hooks.json" ;;
  inline) node -e '
const h = JSON.parse(process.argv[1]).hooks; let out = "";
const q = (s) => JSON.stringify(s);
for (const [ev, groups] of Object.entries(h)) for (const g of groups) {
  out += `\n[[hooks.${ev}]]\n` + (g.matcher ? `matcher = ${q(g.matcher)}\n` : "");
  for (const x of g.hooks) out += `[[hooks.${ev}.hooks]]\ntype = ${q(x.type)}\ncommand = ${q(x.command)}\ntimeout = ${x.timeout}\n`;
}
process.stdout.write(out);' "$HOOKS_JSON" >> "$RUN/codex/config.toml" ;;
esac
# BASIS_INSTALL: replace the hooks written above with what that command installs into the project
# (run in the project, with the run's own HOME), so the test exercises a real install.
if [ -n "${BASIS_INSTALL:-}" ]; then
  rm -f "$RUN/codex/hooks.json" "$RUN/proj/.codex/hooks.json"
  ( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" CODEX_HOME="$RUN/codex" sh -c "$BASIS_INSTALL" ) > "$RUN/install.out" 2>&1 \
    || { echo "install failed:" >&2; cat "$RUN/install.out" >&2; exit 4; }
fi
VERSION="$("$CODEX_BIN" --version 2>/dev/null | awk '{print $2}')"
T0=$(date +%s.%N)
set +e
( cd "$RUN/proj" && env -i PATH="$PATH" HOME="$RUN/home" TERM=dumb LANG=C.UTF-8 \
    CODEX_HOME="$RUN/codex" FAKE_API_KEY=dummy \
    timeout "${TIMEOUT:-60}" "$CODEX_BIN" exec --skip-git-repo-check --json \
      ${CODEX_FLAGS:---dangerously-bypass-approvals-and-sandbox --dangerously-bypass-hook-trust} \
      "Follow the scripted steps." > "$RUN/cli.out" 2> "$RUN/cli.err" < /dev/null )
RC=$?
set -e
SECS=$(echo "$(date +%s.%N) - $T0" | bc)
node "$HERE/lib/summarize.mjs" --cli codex --run "$RUN" --exit "$RC" --seconds "$SECS" --version "$VERSION" > "$RUN/summary.json"
node -e '
const fs = require("fs"); const [f, run, keep, out, err] = process.argv.slice(1);
const s = JSON.parse(fs.readFileSync(f, "utf8"));
const ev = fs.readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
const msgs = ev.filter((e) => e.type === "item.completed" && e.item && e.item.type === "agent_message");
s.final_text = msgs.length ? msgs[msgs.length - 1].item.text : null;
s.cli_notices = ev.filter((e) => e.type === "item.completed" && e.item && e.item.type === "error").map((e) => e.item.message);
s.cli_stderr_tail = fs.readFileSync(err, "utf8").split("\n").filter((l) => /hook|Hook|ERROR|WARN/.test(l)).slice(-12).join("\n");
if (keep === "1") s.run_dir = run;
console.log(JSON.stringify(s, null, 2));
' "$RUN/summary.json" "$RUN" "${KEEP:-0}" "$RUN/cli.out" "$RUN/cli.err"
exit "$RC"
