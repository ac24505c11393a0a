/**
 * Bundle `basis-hooks claude-code` (dist/cli/claude-code-main.js) into dist/cli/claude-code/main.js
 * (run by `npm run build`, after tsc). Claude Code starts a process per tool call, and Node's ESM
 * loader spends more on each of the ~160 files that command loads (95 of them zod's) than on the code
 * in them: one file cuts a cold start by about a third.
 *
 * What is only needed sometimes stays out of the startup path: the component transport, the HTTP
 * server and the settings printer are lazy chunks; jco and the preview2 shim stay in node_modules.
 */
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli', 'claude-code');

const dist = join(root, 'dist');

/**
 * The component transport is bundled too (as a lazy chunk: a config without components never loads
 * it), but its worker isolation starts `./worker/entry.js` relative to its own module. In the bundle
 * that module is a chunk in `outdir`, so the URL is pointed back at dist/. If the source stops
 * matching, the build fails here rather than ship a bundle whose worker mode cannot start.
 */
const workerEntryRewrite = {
  name: 'worker-entry-rewrite',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]transports[\\/]component[\\/]pool\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const pattern = "new URL('./worker/entry.js', here)";
      if (!source.includes(pattern)) {
        throw new Error(`bundle-claude-code: ${args.path} no longer contains ${pattern}; update scripts/bundle-claude-code.mjs`);
      }
      const entry = relative(outdir, join(dist, 'transports', 'component', 'worker', 'entry.js'));
      return { contents: source.replace(pattern, `new URL(${JSON.stringify(entry)}, here)`), loader: 'js' };
    });
  },
};

// Chunk names carry content hashes: clear the last build's.
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, 'dist', 'cli', 'claude-code-main.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Keep the shebang of the entry; chunks need none.
  external: ['@bytecodealliance/*', '@modelcontextprotocol/*'],
  plugins: [workerEntryRewrite],
  logLevel: 'warning',
  legalComments: 'none',
});
