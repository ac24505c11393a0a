/**
 * Processes the scripts start around a measurement or a conformance run (servers, gateways, proxies):
 * a free loopback port, and a process started and waited for until its output says it is ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a server that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start `argv` (added to `children`, for the caller to stop) and resolve with the first capture of
 * `ready` in its stdout or stderr; reject, with what it printed, when it is not ready in `timeoutMs`.
 */
export function startReady(children: ChildProcess[], argv: readonly string[], ready: RegExp, options: { readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let text = '';
    const timer = setTimeout(() => reject(new Error(`did not start: ${argv.join(' ')}\n${text}`)), options.timeoutMs ?? 60_000);
    const read = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const match = ready.exec(text);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] ?? '');
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  });
}
