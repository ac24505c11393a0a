/**
 * Reference implementation of the example policies (guest-examples/POLICIES.md) as in-process
 * interceptors. Works on the JSON text of the value, exactly like the guests do.
 */
import type { HookRequest, HookResponse, JsonValue } from '../../host/index.js';

const PROTECTED = [' main', ' master', ':main', ':master'];

function followedByEnd(text: string, at: number): boolean {
  const c = text[at];
  return c === ' ' || c === '"';
}

/** Positions of force flags: `--force` not followed by `-`, and ` -f` followed by space or quote. */
function forceFlags(text: string): Array<{ at: number; len: number }> {
  const flags: Array<{ at: number; len: number }> = [];
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('--force', i) && text[i + 7] !== '-') flags.push({ at: i, len: 7 });
    else if (text.startsWith(' -f', i) && followedByEnd(text, i + 3)) flags.push({ at: i + 1, len: 2 });
  }
  return flags;
}

/** pre_tool_use: deny force-pushes to main/master, turn other force-pushes into --force-with-lease. */
export function guard(request: HookRequest): HookResponse {
  if (request.event !== 'pre_tool_use') return { decision: 'allow' };
  const text = JSON.stringify(request.input);
  if (!text.includes('git push')) return { decision: 'allow' };
  const flags = forceFlags(text);
  if (flags.length === 0) return { decision: 'allow' };
  const protectedBranch = PROTECTED.some((p) => {
    for (let i = text.indexOf(p); i !== -1; i = text.indexOf(p, i + 1)) if (followedByEnd(text, i + p.length)) return true;
    return false;
  });
  if (protectedBranch) return { decision: 'deny', reason: 'force-push to a protected branch (main/master) is not allowed' };
  let out = '';
  let last = 0;
  for (const f of flags) {
    out += `${text.slice(last, f.at)}--force-with-lease`;
    last = f.at + f.len;
  }
  out += text.slice(last);
  return { decision: 'modify', input: JSON.parse(out) as JsonValue, reason: 'replaced --force with --force-with-lease' };
}

const isUpperAlnum = (c: string | undefined): boolean => c !== undefined && /[A-Z0-9]/.test(c);
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9]/.test(c);
const isSecretChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9/+]/.test(c);
const isBearerChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9._-]/.test(c);

function runOf(text: string, from: number, ok: (c: string | undefined) => boolean): number {
  let n = 0;
  while (ok(text[from + n])) n++;
  return n;
}

/** post_tool_use: replace AWS keys, GitHub tokens and bearer tokens in the output with [REDACTED]. */
export function redact(request: HookRequest): HookResponse {
  if (request.event !== 'post_tool_use') return { decision: 'allow' };
  const text = JSON.stringify(request.output);
  let out = '';
  let count = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('AKIA', i) && runOf(text, i + 4, isUpperAlnum) >= 16) {
      out += '[REDACTED]';
      i += 20;
      count++;
      continue;
    }
    const secretPrefix = ['AWS_SECRET_ACCESS_KEY=', 'aws_secret_access_key='].find((p) => text.startsWith(p, i));
    if (secretPrefix && runOf(text, i + secretPrefix.length, isSecretChar) >= 40) {
      out += `${secretPrefix}[REDACTED]`;
      i += secretPrefix.length + 40;
      count++;
      continue;
    }
    if (['ghp_', 'gho_', 'ghs_', 'ghu_'].some((p) => text.startsWith(p, i)) && runOf(text, i + 4, isAlnum) >= 36) {
      out += '[REDACTED]';
      i += 40;
      count++;
      continue;
    }
    if (text.startsWith('Bearer ', i)) {
      const n = runOf(text, i + 7, isBearerChar);
      if (n >= 20) {
        out += 'Bearer [REDACTED]';
        i += 7 + n;
        count++;
        continue;
      }
    }
    out += text[i];
    i++;
  }
  if (count === 0) return { decision: 'allow' };
  return { decision: 'replace', output: JSON.parse(out) as JsonValue, reason: `redacted ${count} secret(s)` };
}
