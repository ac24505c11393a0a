import os from 'node:os';
import path from 'node:path';

/**
 * Where `serve` listens and `hook` connects by default: `$XDG_RUNTIME_DIR/basis-hooks/hooks.sock`
 * (a per-user directory the system makes 0700), else `/tmp/basis-hooks-<uid>/hooks.sock` (made 0700).
 */
export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime !== undefined && runtime !== '') return path.join(runtime, 'basis-hooks', 'hooks.sock');
  return path.join(os.tmpdir(), `basis-hooks-${os.userInfo().uid}`, 'hooks.sock');
}
