import { execFile } from 'node:child_process';

/** What a tool printed, and how it exited. */
export interface ToolRun {
  readonly ok: boolean;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The tool could not be started at all (not found, not executable). */
export class ToolNotFound extends Error {
  override readonly name = 'ToolNotFound' as const;
}

/**
 * Run a compiler or similar tool and collect its output. Resolves for any exit status (the caller
 * decides what a failure means); rejects with {@link ToolNotFound} when it cannot be started.
 */
export function runTool(file: string, args: readonly string[], options: { readonly cwd?: string } = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { cwd: options.cwd, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ ok: true, code: 0, stdout, stderr });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string') {
        // ENOENT, EACCES...: nothing ran.
        reject(new ToolNotFound(`cannot run ${file} (${code})`, { cause: error }));
        return;
      }
      resolve({ ok: false, code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}
