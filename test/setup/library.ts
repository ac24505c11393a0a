/**
 * Vitest global setup: the CLI, MCP and Claude Code tests run the built `dist/` (as users do), so it
 * is rebuilt first when a source changed since it was built. Without this a suite run after an edit
 * would test the old build, and the demo test (whose script builds a stale library itself) would
 * delete dist/ under the files running beside it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { libraryIsFresh } from '../../scripts/build.mjs';

export function setup(): void {
  if (libraryIsFresh()) return;
  process.stderr.write('vitest: dist/ is older than its sources; building it (npm run build)\n');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status ?? built.signal}); the suite tests dist/`);
}
