/** Running a program to its end in a test: one helper, so every test collects output the same way. */
import { spawn } from 'node:child_process';

/** A finished process: its status and output. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run `file` with `args`, `stdin` written and closed; resolves when it exits (rejects when it cannot
 * start). A child that exits without reading its stdin is not an error.
 */
export function runWith(file: string, args: readonly string[], stdin = '', options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}
