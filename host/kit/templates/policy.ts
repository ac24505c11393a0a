import type { HookEvent } from '../../contract/event.js';

/*
 * The two starter policies, written once here and implemented identically in every language's
 * template, so one cases file (cases.ts) passes for all of them. Like guest-examples/POLICIES.md they
 * work on the JSON *text* of the value with plain substring scanning: no JSON parser needed.
 */

/** What the pre_tool_use starter refuses, and the reason it gives. */
export const PRE_NEEDLE = 'rm -rf /';
export const PRE_REASON = 'refusing to run rm -rf / (it would delete the whole filesystem)';

/** What the post_tool_use starter redacts: a GitHub token (`ghp_` + 36 letters or digits). */
export const POST_PREFIX = 'ghp_';
export const POST_TOKEN_CHARS = 36;
export const POST_MARKER = '[REDACTED]';

/** The post starter's reason for `count` replacements. */
export function postReason(count: number): string {
  return `redacted ${count} token(s)`;
}

/** The starter's policy in one paragraph, for its README. */
export function policySummary(event: HookEvent): string {
  return event === 'pre_tool_use'
    ? `Before a tool runs: if the input's JSON text contains \`${PRE_NEEDLE}\` followed by the end of the text, a space, \`"\` or \`*\` (the root itself, not \`/tmp/...\`), **deny** with the reason "${PRE_REASON}"; otherwise **allow**. At post_tool_use it allows (harmless if registered at the wrong event).`
    : `After a tool ran: every GitHub token in the output's JSON text (\`${POST_PREFIX}\` followed by ${POST_TOKEN_CHARS} letters or digits) is replaced by \`${POST_MARKER}\` and the hook answers **replace** with the new output and the reason "redacted N token(s)"; with no token it **allows**. At pre_tool_use it allows (harmless if registered at the wrong event).`;
}
