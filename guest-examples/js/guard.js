/**
 * `guard` — a pre_tool_use hook for the `basis:hook` world (guest-examples/POLICIES.md):
 * deny force-pushes to main/master, turn other force-pushes into `--force-with-lease`.
 *
 * It works on the JSON *text* of the tool input that the WIT record carries (`request.input`), with
 * plain substring scanning: never parse and re-serialize it, so every guest language answers the
 * same bytes.
 *
 * Build: `npx tsx scripts/build-guests.ts js` (see README.md).
 */

const PROTECTED = [' main', ' master', ':main', ':master'];
const DENY_REASON = 'force-push to a protected branch (main/master) is not allowed';
const MODIFY_REASON = 'replaced --force with --force-with-lease';

/** A branch name or flag ends at a space or at the closing quote of the JSON string. */
function endsAt(text, at) {
  const c = text[at];
  return c === ' ' || c === '"';
}

/** Force flags as { at, len }: `--force` not followed by `-`, and ` -f` followed by a space or quote. */
function forceFlags(text) {
  const flags = [];
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('--force', i) && text[i + 7] !== '-') flags.push({ at: i, len: 7 });
    else if (text.startsWith(' -f', i) && endsAt(text, i + 3)) flags.push({ at: i + 1, len: 2 });
  }
  return flags;
}

function namesProtectedBranch(text) {
  return PROTECTED.some((branch) => {
    for (let i = text.indexOf(branch); i !== -1; i = text.indexOf(branch, i + 1)) {
      if (endsAt(text, i + branch.length)) return true;
    }
    return false;
  });
}

/** The `basis:hook/handler` export. Returns a `decision` variant; never throws an Error (that traps). */
export const handler = {
  handle(request) {
    // A guard registered at post_tool_use by mistake stays harmless.
    if (request.event !== 'pre-tool-use') return { tag: 'allow' };
    const text = request.input;
    if (!text.includes('git push')) return { tag: 'allow' };
    const flags = forceFlags(text);
    if (flags.length === 0) return { tag: 'allow' };
    if (namesProtectedBranch(text)) return { tag: 'deny', val: DENY_REASON };
    let out = '';
    let last = 0;
    for (const flag of flags) {
      out += `${text.slice(last, flag.at)}--force-with-lease`;
      last = flag.at + flag.len;
    }
    out += text.slice(last);
    return { tag: 'modify', val: { input: out, reason: MODIFY_REASON } };
  },
};
