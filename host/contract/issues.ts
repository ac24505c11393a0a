import type { z } from 'zod';
import { preview } from './preview.js';

/** A validation problem as a person reads it: a JSON path (`hooks[0].event`) and what is wrong. */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/** Render a zod path as a JSON path: `hooks[0].event`, or `` for the root. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && key.length <= MAX_KEY && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else {
      // A key is data too (a model can make it a megabyte long): quote only its head.
      const text = String(key);
      out += `[${JSON.stringify(text.length > MAX_KEY ? `${text.slice(0, MAX_KEY - 3)}...` : text)}]`;
    }
  }
  return out;
}

/** Longest key quoted whole in a path. */
const MAX_KEY = 64;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  try {
    for (const key of path) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = (cur as Record<PropertyKey, unknown>)[key];
    }
  } catch {
    return undefined; // a getter that throws: there is nothing to quote
  }
  return cur;
}

/** The offending value, quoted — bounded and safe for anything a caller may pass (see {@link preview}). */
function show(value: unknown): string {
  if (value === undefined) return 'missing';
  return preview(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** What zod says for a union without its own `error`; anything else was written for that union. */
const DEFAULT_UNION_MESSAGE = 'Invalid input';

/**
 * Turn zod issues into messages that name the offending key and value — zod's own say "Invalid
 * input" for a union, which tells a user nothing. `input` is what was parsed, to quote values from.
 */
export function describeIssues(error: z.ZodError, input: unknown): Issue[] {
  const out: Issue[] = [];
  for (const issue of error.issues) {
    // The JSON walker's issues already say what is wrong at their path (contract/json.ts).
    if (issue.code === 'custom' && (issue.params as { json?: unknown } | undefined)?.json === true) {
      out.push({ path: formatPath(issue.path), message: issue.message });
      continue;
    }
    const value = valueAt(input, issue.path);
    let message = issue.message;
    switch (issue.code) {
      case 'invalid_union':
        if ('discriminator' in issue && Array.isArray((issue as { options?: unknown }).options)) {
          const options = (issue as unknown as { options: unknown[] }).options.map(String).join(', ');
          message =
            value === undefined
              ? `is required (one of ${options})`
              : `${show(value)} is not one of ${options}`;
        } else if (issue.message !== DEFAULT_UNION_MESSAGE) {
          // The union was given its own description (`z.union([...], { error })`): say what it accepts.
          message = value === undefined ? `is required (${issue.message})` : `${show(value)} is not ${issue.message}`;
        } else {
          message = value === undefined ? 'is required' : `${show(value)} does not match any allowed shape`;
        }
        break;
      case 'invalid_value': {
        const options = issue.values.map((v) => String(v)).join(', ');
        message = value === undefined ? `is required (one of ${options})` : `${show(value)} is not one of ${options}`;
        break;
      }
      case 'too_small':
      case 'too_big': {
        const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
        if (issue.code === 'too_small' && Number(bound) === 1 && (issue.origin === 'string' || issue.origin === 'array')) {
          message = `must not be empty (got ${show(value)})`;
        } else {
          const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
          const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' || issue.origin === 'set' ? ' items' : '';
          const measured = unit === '' ? '' : 'length ';
          message = `${measured}must be ${op} ${String(bound)}${unit} (got ${show(value)})`;
        }
        break;
      }
      case 'invalid_key': {
        // A record key failed its own schema: the path ends at the key, so name it and say why.
        const key = issue.path.at(-1);
        message = `invalid key ${JSON.stringify(String(key))}: ${issue.issues.map((i) => i.message).join('; ')}`;
        break;
      }
      case 'invalid_type':
        message = value === undefined ? `is required (${issue.expected})` : `expected ${issue.expected}, got ${typeOf(value)} ${show(value)}`;
        break;
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          out.push({ path: formatPath([...issue.path, key]), message: 'unknown key' });
        }
        continue;
      default:
        message = `${issue.message} (got ${show(value)})`;
    }
    out.push({ path: formatPath(issue.path), message });
  }
  return out;
}

/** One line per issue: `path: message` (or just the message at the root). */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`)).join('; ');
}
