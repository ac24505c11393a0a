/**
 * `redact` — a post_tool_use hook (guest-examples/POLICIES.md): replace AWS keys, GitHub tokens and
 * bearer tokens in the tool output with `[REDACTED]`.
 *
 * It reads the request and answers in the wire contract's own shapes. `request.output` is the tool
 * output as a JSON value (text as a string, structured results as themselves): every string in it is
 * scanned left to right and rewritten, and the answer keeps the value's structure.
 *
 * Build: `npm run build-guests -- js` (see README.md).
 */

const SECRET_NAMES = ['AWS_SECRET_ACCESS_KEY=', 'aws_secret_access_key='];
const GITHUB_PREFIXES = ['ghp_', 'gho_', 'ghs_', 'ghu_'];

// Character classes on char codes (NaN past the end of the text matches nothing). Char codes, not
// regular expressions: the engines run interpreted inside the component, and a regex per character
// made a 300-character output cost ~0.8 ms under SpiderMonkey.
const isDigit = (c) => c >= 48 && c <= 57;
const isUpper = (c) => c >= 65 && c <= 90;
const isLower = (c) => c >= 97 && c <= 122;
const isUpperAlnum = (c) => isUpper(c) || isDigit(c);
const isAlnum = (c) => isUpper(c) || isLower(c) || isDigit(c);
const isSecretChar = (c) => isAlnum(c) || c === 47 /* / */ || c === 43 /* + */;
const isBearerChar = (c) => isAlnum(c) || c === 46 /* . */ || c === 95 /* _ */ || c === 45 /* - */;

/** Length of the run of characters accepted by `ok` starting at `from`. */
function runOf(text, from, ok) {
  let n = 0;
  while (ok(text.charCodeAt(from + n))) n++;
  return n;
}

/**
 * The secret starting exactly at `i`, as { len, replacement }, or undefined. The checks run in the
 * order POLICIES.md lists them.
 */
function secretAt(text, i) {
  if (text.startsWith('AKIA', i) && runOf(text, i + 4, isUpperAlnum) >= 16) return { len: 20, replacement: '[REDACTED]' };
  const name = SECRET_NAMES.find((p) => text.startsWith(p, i));
  if (name !== undefined && runOf(text, i + name.length, isSecretChar) >= 40) {
    return { len: name.length + 40, replacement: `${name}[REDACTED]` };
  }
  if (GITHUB_PREFIXES.some((p) => text.startsWith(p, i)) && runOf(text, i + 4, isAlnum) >= 36) return { len: 40, replacement: '[REDACTED]' };
  if (text.startsWith('Bearer ', i)) {
    const n = runOf(text, i + 7, isBearerChar);
    if (n >= 20) return { len: 7 + n, replacement: 'Bearer [REDACTED]' };
  }
  return undefined;
}

/**
 * Where a secret can start: any of the prefixes above. Jumping from one to the next with the regex
 * engine, instead of looking at every character, is what keeps long outputs cheap; `secretAt` then
 * decides. A failed candidate resumes one character later, so overlapping prefixes are all seen.
 */
const CANDIDATES = /AKIA|AWS_SECRET_ACCESS_KEY=|aws_secret_access_key=|gh[pous]_|Bearer /g;

/** The text with every secret replaced; `found.count` counts them. */
function redactText(text, found) {
  let out = '';
  let copied = 0; // text[copied..] is still to be copied to `out`
  CANDIDATES.lastIndex = 0; // a global regex carries its position over from the previous use
  for (let m = CANDIDATES.exec(text); m !== null; m = CANDIDATES.exec(text)) {
    const secret = secretAt(text, m.index);
    if (secret === undefined) {
      CANDIDATES.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(copied, m.index) + secret.replacement;
    copied = m.index + secret.len;
    CANDIDATES.lastIndex = copied;
    found.count++;
  }
  return out + text.slice(copied);
}

/** The value with `change` applied to every string in it (object keys stay as they are). */
function mapStrings(value, change) {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, change)]));
  return value;
}

export function handle(request) {
  // A redactor registered at pre_tool_use by mistake stays harmless.
  if (request.event !== 'post_tool_use') return { decision: 'allow' };
  const found = { count: 0 };
  const output = mapStrings(request.output, (text) => redactText(text, found));
  if (found.count === 0) return { decision: 'allow' };
  // No is_error: the tool's own claim about success stands.
  return { decision: 'replace', output, reason: `redacted ${found.count} secret(s)` };
}
