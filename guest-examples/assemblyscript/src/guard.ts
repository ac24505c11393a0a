/**
 * guard — pre_tool_use: deny force-pushes to main/master, turn other force-pushes into
 * --force-with-lease (guest-examples/POLICIES.md). Works on the input's JSON text by substring scanning.
 */
import { Decision, Event, Request, serve } from "../glue/hook";
export { cabi_realloc, cabi_post_handle } from "../glue/hook";

/** The component's `handle` export (renamed by glue/export-names.mjs). */
export function handle(request: usize): usize {
  return serve(request, guard);
}

const SPACE = 0x20;
const QUOTE = 0x22;
const DASH = 0x2d;

function endsWord(t: string, at: i32): bool {
  if (at >= t.length) return false;
  const c = t.charCodeAt(at);
  return c == SPACE || c == QUOTE;
}

/** Length of the force flag at `at` (7 for `--force`, 2 for the `-f` of ` -f`), or 0. */
function forceFlagAt(t: string, at: i32): i32 {
  if (t.startsWith("--force", at) && !(at + 7 < t.length && t.charCodeAt(at + 7) == DASH)) return 7;
  if (t.startsWith(" -f", at) && endsWord(t, at + 3)) return 2;
  return 0;
}

function hasForceFlag(t: string): bool {
  for (let i = 0; i < t.length; i++) if (forceFlagAt(t, i) != 0) return true;
  return false;
}

const PROTECTED = [" main", " master", ":main", ":master"];

function namesProtectedBranch(t: string): bool {
  for (let b = 0; b < PROTECTED.length; b++) {
    const p = PROTECTED[b];
    for (let i = t.indexOf(p); i != -1; i = t.indexOf(p, i + 1)) if (endsWord(t, i + p.length)) return true;
  }
  return false;
}

function guard(req: Request): Decision {
  if (req.event != Event.PreToolUse) return Decision.allow();
  const t = req.input;
  if (!t.includes("git push") || !hasForceFlag(t)) return Decision.allow();
  if (namesProtectedBranch(t)) return Decision.deny("force-push to a protected branch (main/master) is not allowed");

  const parts = new Array<string>();
  let copied = 0;
  for (let i = 0; i < t.length; i++) {
    const flag = forceFlagAt(t, i);
    if (flag == 0) continue;
    // ` -f`: the match starts at the space, the flag itself one character later.
    const at = flag == 2 ? i + 1 : i;
    parts.push(t.substring(copied, at));
    parts.push("--force-with-lease");
    copied = at + flag;
    i = copied - 1;
  }
  parts.push(t.substring(copied));
  return Decision.modify(parts.join(""), "replaced --force with --force-with-lease");
}
