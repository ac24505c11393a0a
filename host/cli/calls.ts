import { HookCall } from '../contract/call.js';
import { describeIssues, formatPath } from '../contract/issues.js';
import { preview } from '../contract/preview.js';
import { readToolInput } from '../codec/input.js';

/** The calls read from a file or stdin, or every problem found in them (none of the calls runs then). */
export type ParsedCalls =
  | { readonly ok: true; readonly calls: readonly HookCall[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Parse the calls `basis-hooks run` reads: either JSON lines (one call per line, blank lines skipped)
 * or a single JSON object, possibly pretty-printed over several lines. Every call is validated against
 * {@link HookCall} before any runs; each problem names `source:line`, the key and the value.
 *
 * Calls are kept as written: a string `input` is raw tool text and gets the parse rule in the runner.
 */
export function parseCalls(text: string, source: string): ParsedCalls {
  const lines = text.split('\n');
  const firstLine = lines.findIndex((line) => line.trim() !== '') + 1;
  if (firstLine === 0) return { ok: true, calls: [] };

  // One (pretty-printed) object: the whole text parses. JSON lines with two or more calls never do.
  const whole = tryParse(text);
  if (whole.ok) {
    const checked = checkCall(whole.value, `${source}:${firstLine}`);
    return checked.ok ? { ok: true, calls: [checked.call] } : { ok: false, problems: checked.problems };
  }

  const calls: HookCall[] = [];
  const problems: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${source}:${index + 1}`;
    const parsed = tryParse(line);
    if (!parsed.ok) {
      problems.push(`${where}: not valid JSON (${parsed.error})`);
      return;
    }
    const checked = checkCall(parsed.value, where);
    if (checked.ok) calls.push(checked.call);
    else problems.push(...checked.problems);
  });
  return problems.length === 0 ? { ok: true, calls } : { ok: false, problems };
}

type Checked = { readonly ok: true; readonly call: HookCall } | { readonly ok: false; readonly problems: string[] };

function checkCall(value: unknown, where: string): Checked {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problems: [`${where}: a call must be a JSON object (got ${Array.isArray(value) ? 'an array' : preview(value)})`] };
  }
  const result = HookCall.safeParse(value);
  if (result.success) {
    // The runner's own check of a raw-text input (JSON beyond the limits), made before any call runs.
    const input = readToolInput(result.data.input);
    return input.ok ? { ok: true, call: result.data } : { ok: false, problems: [`${where}: ${input.message}`] };
  }
  return {
    ok: false,
    problems: describeIssues(result.error, value).map((issue) =>
      issue.path === formatPath([]) ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`,
    ),
  };
}

function tryParse(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? shorten(error.message) : String(error) };
  }
}

function shorten(message: string): string {
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}
