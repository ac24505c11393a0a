import { describeIssues, formatPath } from '../contract/issues.js';
import { DecisionExpectation, FailureExpectation, TestCase } from './schema.js';

/** A case and the line of the file it came from (for reports). */
export interface LocatedCase {
  readonly case: TestCase;
  readonly line: number;
}

/** Every case of a file, or every problem found in it (then none runs). */
export type ParsedCases =
  | { readonly ok: true; readonly cases: readonly LocatedCase[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Parse a cases file: JSON lines (blank lines and lines starting with `//` or `#` skipped), each a
 * {@link TestCase}. Every line is checked before any case runs, and each problem names
 * `source:line`, the key and the value. A decision that cannot happen at the call's event (modify
 * after the call, replace before it) is refused here: the runner would turn it into a failure, so the
 * case could never pass as written.
 */
export function parseCases(text: string, source: string): ParsedCases {
  const cases: LocatedCase[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//') || line.startsWith('#')) return;
    const where = `${source}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    const result = TestCase.safeParse(value);
    if (!result.success) {
      problems.push(...describe(value, where));
      return;
    }
    const { call, expect } = result.data;
    if ('decision' in expect) {
      const wrong =
        (expect.decision === 'modify' && call.event === 'post_tool_use') || (expect.decision === 'replace' && call.event === 'pre_tool_use');
      if (wrong) {
        problems.push(
          `${where}: expect.decision: "${expect.decision}" cannot be the outcome at ${call.event} (the runner treats it as a failure); expect {"failure":"wrong_decision_for_event"} instead`,
        );
        return;
      }
    }
    cases.push({ case: result.data, line: index + 1 });
  });
  if (problems.length > 0) return { ok: false, problems };
  if (cases.length === 0) return { ok: false, problems: [`${source}: no cases (one JSON object per line: {"name", "call", "expect"})`] };
  return { ok: true, cases };
}

/**
 * Problems of a line that is not a case. `expect` is validated by the shape it has — a `failure` key
 * means a failure expectation, anything else a decision — so the message names the wrong key rather
 * than saying the union did not match.
 */
function describe(value: unknown, where: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [`${where}: a case must be a JSON object with "name", "call" and "expect"`];
  }
  const out: string[] = [];
  const { expect, ...rest } = value as Record<string, unknown>;
  const shell = TestCase.omit({ expect: true }).safeParse(rest);
  if (!shell.success) out.push(...format(describeIssues(shell.error, rest), where));
  if (expect === undefined) {
    out.push(`${where}: expect: is required ({"decision": ...} or {"failure": "<code>"})`);
  } else {
    const schema = expect !== null && typeof expect === 'object' && 'failure' in expect ? FailureExpectation : DecisionExpectation;
    const checked = schema.safeParse(expect);
    if (!checked.success) out.push(...format(describeIssues(checked.error, expect), where, 'expect'));
  }
  return out.length > 0 ? out : [`${where}: not a valid case`];
}

/** `source:line: path: message`, with the path under `prefix` when the issues are about a nested value. */
function format(issues: readonly { readonly path: string; readonly message: string }[], where: string, prefix = ''): string[] {
  return issues.map((issue) => {
    const path = issue.path === formatPath([]) ? prefix : prefix === '' ? issue.path : issue.path.startsWith('[') ? `${prefix}${issue.path}` : `${prefix}.${issue.path}`;
    return path === '' ? `${where}: ${issue.message}` : `${where}: ${path}: ${issue.message}`;
  });
}
