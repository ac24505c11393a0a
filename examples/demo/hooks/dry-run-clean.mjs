#!/usr/bin/env node
// pre_tool_use rewrite, in Node: `git clean -f…` deletes untracked files for good, so run it as a
// dry run (`-n`) instead and let the model see what *would* go. A modify, not a deny: the model is
// told what is acceptable rather than just "no".
import { readFileSync } from 'node:fs';

const request = JSON.parse(readFileSync(0, 'utf8'));
if (request.hook_schema !== 1) {
  process.stderr.write(`dry-run-clean: unsupported hook_schema ${request.hook_schema}\n`);
  process.exit(3);
}

const command = typeof request.input === 'object' && request.input !== null ? request.input.command : undefined;
// `git clean` with a short-flag cluster containing f (-f, -fd, -xdf …) and no dry-run flag yet.
const clean = /^(\s*git\s+clean\s+(?:\S+\s+)*?)-([a-zA-Z]*f[a-zA-Z]*)\b/;
let answer = { decision: 'allow' };
if (typeof command === 'string' && clean.test(command) && !/\s(-[a-zA-Z]*n|--dry-run)\b/.test(command)) {
  const rewritten = command.replace(clean, (_, head, flags) => `${head}-${flags.replaceAll('f', 'n')}`);
  answer = {
    decision: 'modify',
    input: { ...request.input, command: rewritten },
    reason: `git clean runs as a dry run here: ${JSON.stringify(command)} → ${JSON.stringify(rewritten)}`,
  };
}
process.stdout.write(`${JSON.stringify(answer)}\n`);
