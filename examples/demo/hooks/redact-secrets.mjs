#!/usr/bin/env node
// post_tool_use redactor, in Node: a command that succeeded may still have printed a credential.
// Every string in the output (structured results are walked, keys kept) is scanned; what matches is
// replaced by a marker naming the kind of secret, and the reason lists the kinds for the audit trail.
import { readFileSync } from 'node:fs';

const PATTERNS = [
  ['private-key', /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  // A secret key is 40 base64 characters; only redact it where it is labelled as one.
  ['aws-secret-key', /(aws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
  ['bearer-token', /(\bBearer\s+)[A-Za-z0-9\-._~+/]+=*/g],
];

const request = JSON.parse(readFileSync(0, 'utf8'));
if (request.hook_schema !== 1) {
  process.stderr.write(`redact-secrets: unsupported hook_schema ${request.hook_schema}\n`);
  process.exit(3);
}

const found = new Map();
function redact(text) {
  let out = text;
  for (const [kind, pattern] of PATTERNS) {
    out = out.replace(pattern, (...match) => {
      found.set(kind, (found.get(kind) ?? 0) + 1);
      // Keep a label the pattern captured (`Bearer `, `aws_secret_access_key=`) so the result still reads.
      const label = kind === 'private-key' ? '' : typeof match[1] === 'string' ? match[1] : '';
      return `${label}[REDACTED:${kind}]`;
    });
  }
  return out;
}
function walk(value) {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(walk);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  return value;
}

const output = walk(request.output);
const answer =
  found.size === 0
    ? { decision: 'allow' }
    : {
        decision: 'replace',
        output,
        reason: `redacted ${[...found].map(([kind, n]) => `${n} ${kind}`).join(', ')}`,
      };
process.stdout.write(`${JSON.stringify(answer)}\n`);
