#!/usr/bin/env node
// A basis-hooks command hook (the basis wire contract): deny a recursive rm. With "tool_names":
// "canonical" every agent's shell call arrives as `shell {command}`, so one script serves them all.
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (text += c));
process.stdin.on('end', () => {
  const request = JSON.parse(text);
  const command = typeof request.input?.command === 'string' ? request.input.command : '';
  const recursive = /(^|[;&|]\s*|\s)rm\s+(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\b/.test(command);
  const answer = recursive
    ? { decision: 'deny', reason: 'basis-hooks policy: recursive rm is not allowed' }
    : { decision: 'allow' };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
