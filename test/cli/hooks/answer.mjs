#!/usr/bin/env node
// A test hook: prints the response given as its argument. With `--big N` it replaces the output by
// N bytes of "x". With `--mark FILE` it first appends the tool_call_id to FILE (proof that it ran).
import { appendFileSync, readFileSync } from 'node:fs';

const request = JSON.parse(readFileSync(0, 'utf8'));
const args = process.argv.slice(2);
if (args[0] === '--mark') {
  appendFileSync(args[1], `${request.tool_call_id}\n`);
  args.splice(0, 2);
}
if (args[0] === '--big') {
  process.stdout.write(JSON.stringify({ decision: 'replace', output: 'x'.repeat(Number(args[1])), reason: 'big' }));
} else {
  process.stdout.write(args[0] ?? '');
}
