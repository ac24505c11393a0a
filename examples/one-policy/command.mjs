#!/usr/bin/env node
/**
 * A component hook's module as a command hook: `node command.mjs <module.js>` reads the basis request
 * on stdin, calls the module's `handle(request, context)` and prints its answer (the wire contract:
 * one JSON object in, one out). So the same policy file is both a sandboxed component (`basis-hooks
 * build`, `hooks.json`) and a command hook (`hooks.command.json`). A module that throws fails the
 * hook (exit 1), which the chain treats under the hook's `on_failure` (deny by default).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [file] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node command.mjs <module.js>  (the basis request on stdin)\n');
  process.exit(2);
}
const { handle } = await import(pathToFileURL(path.resolve(file)).href);
let text = '';
for await (const chunk of process.stdin) text += chunk;
const answer = handle(JSON.parse(text), { env: {} });
process.stdout.write(`${JSON.stringify(answer)}\n`);
