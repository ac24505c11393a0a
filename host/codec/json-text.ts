import { JSON_LIMITS } from '../contract/limits.js';

/** What {@link parseJsonText} needs to know about the text it reads. */
export interface JsonTextRules {
  /** Deepest nesting allowed in the whole text (an envelope around a tool value adds one). */
  readonly maxDepth: number;
  /** Longest text, in UTF-16 code units. Default {@link JSON_LIMITS}.max_length. */
  readonly maxLength?: number;
  /**
   * Refuse an object that names a key twice (default false: `JSON.parse` keeps the last). A hook's
   * answer must not be ambiguous — `{"decision":"deny","reason":"x","decision":"allow"}` is an allow
   * to one parser and a deny to another, and a guard that builds its JSON by hand can be made to
   * print it by the model's own input.
   */
  readonly rejectDuplicateKeys?: boolean;
}

/** Parsed text, or why it was refused: not JSON at all (`syntax`), or JSON the host will not take (`limit`, `duplicate_key`). */
export type ParsedText =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'syntax' | 'limit' | 'duplicate_key'; readonly message: string };

/** Scratch state of {@link scanJsonText}, reused from one scan to the next. */
let openIsObject = new Uint8Array(258);
const openKeys: Array<Set<string> | undefined> = [];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * One pass over JSON text, without recursion and before anything is built from it: the nesting depth
 * and (when asked) duplicate keys. Structure outside strings is read a character at a time; strings
 * are skipped with `indexOf`, so the cost is O(n) and mostly native. Returns a problem, or undefined
 * when the text is within the rules — *if* it is JSON: the scan does not validate syntax (`JSON.parse`
 * does, next), and on text that is not JSON it may report nothing or something meaningless.
 */
export function scanJsonText(text: string, rules: JsonTextRules): { readonly problem: 'limit' | 'duplicate_key'; readonly message: string } | undefined {
  try {
    return scan(text, rules);
  } finally {
    // Keys of the scanned text are not kept alive until the next scan.
    for (const set of openKeys) set?.clear();
  }
}

function scan(text: string, rules: JsonTextRules): { readonly problem: 'limit' | 'duplicate_key'; readonly message: string } | undefined {
  const maxLength = rules.maxLength ?? JSON_LIMITS.max_length;
  if (text.length > maxLength) return { problem: 'limit', message: `is longer than ${maxLength} characters (the limit)` };
  const { maxDepth } = rules;
  const dedupe = rules.rejectDuplicateKeys === true;
  // Per open container: is it an object; and (dedupe only) the keys it has named so far. Reused
  // across scans (a scan is synchronous): a small answer costs no allocation but its keys.
  if (openIsObject.length < maxDepth + 1) openIsObject = new Uint8Array(maxDepth + 1);
  const isObject = openIsObject;
  const keys = openKeys;
  let depth = 0;
  let expectKey = false;
  let nextBackslash = -2; // position of the next backslash at or after the scan, -1 when none is left
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Find the closing quote: the next one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end < 0) return undefined; // unterminated: not JSON, JSON.parse says so
        let b = end - 1;
        while (b > i && text.charCodeAt(b) === BACKSLASH) b--;
        if ((end - 1 - b) % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (dedupe && expectKey && depth > 0) {
        if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
        let key: string;
        if (nextBackslash !== -1 && nextBackslash < end) {
          // Escapes decoded, so "a" and "\u0061" are the same key.
          try {
            key = JSON.parse(text.slice(i, end + 1)) as string;
          } catch {
            return undefined;
          }
        } else {
          key = text.slice(i + 1, end);
        }
        let seen = keys[depth];
        if (seen === undefined) keys[depth] = seen = new Set();
        if (seen.has(key)) {
          const shown = key.length > 64 ? `${key.slice(0, 61)}...` : key;
          return { problem: 'duplicate_key', message: `names the key ${JSON.stringify(shown)} twice in one object` };
        }
        seen.add(key);
      }
      expectKey = false;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      if (depth > maxDepth) return { problem: 'limit', message: `nests deeper than ${maxDepth} levels of arrays and objects (the limit)` };
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      expectKey = c === OPEN_OBJECT;
      if (dedupe) keys[depth]?.clear();
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return undefined; // unbalanced: not JSON
      depth -= 1;
      expectKey = false;
    } else if (c === COMMA) {
      expectKey = depth > 0 && isObject[depth] === 1;
    }
  }
  return undefined;
}

/**
 * `JSON.parse` behind {@link scanJsonText}: the text is checked for depth, length and (when asked)
 * duplicate keys before anything is built, then parsed natively (V8's parser does not recurse).
 */
export function parseJsonText(text: string, rules: JsonTextRules): ParsedText {
  const scanned = scanJsonText(text, rules);
  if (scanned !== undefined) return { ok: false, ...scanned };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: 'syntax', message: error instanceof Error ? error.message : String(error) };
  }
}
