import { spawn } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI (`npm run build`), run the way a user runs it. */
export const CLI = path.join(ROOT, 'dist/cli/main.js');
const ANSWER = fileURLToPath(new URL('hooks/answer.mjs', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `node dist/cli/main.js ...args`, feeding `stdin` (or closing it), and collect everything. */
export function runCli(args: readonly string[], options: { stdin?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => {}); // the CLI may exit (usage error) before reading stdin
    child.stdin.end(options.stdin ?? '');
  });
}

/** The lines of stdout, each parsed as JSON. */
export function jsonLines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Write `hooks.json` (and the test hook as hooks/answer.mjs) into `dir`; returns the config path. */
export async function writeConfig(dir: string, hooks: readonly Record<string, unknown>[]): Promise<string> {
  await mkdir(path.join(dir, 'hooks'), { recursive: true });
  await copyFile(ANSWER, path.join(dir, 'hooks/answer.mjs'));
  const file = path.join(dir, 'hooks.json');
  await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }, null, 2));
  return file;
}

/** argv of the test hook answering `response` (relative: resolved against the config dir). */
export function answer(response: unknown, ...flags: string[]): string[] {
  return ['node', 'hooks/answer.mjs', ...flags, JSON.stringify(response)];
}

const base = { workspace: '/repo', agent_id: 'agent-1' } as const;

/** A pre_tool_use call line. */
export function pre(id: string, tool: string, input: unknown): Record<string, unknown> {
  return { event: 'pre_tool_use', ...base, tool_call_id: id, tool_name: tool, input };
}

/** A post_tool_use call line. */
export function post(id: string, tool: string, input: unknown, output: unknown, isError = false): Record<string, unknown> {
  return { event: 'post_tool_use', ...base, tool_call_id: id, tool_name: tool, input, output, is_error: isError };
}

/** Calls as JSON lines. */
export function jsonl(calls: readonly unknown[]): string {
  return calls.map((c) => `${JSON.stringify(c)}\n`).join('');
}
