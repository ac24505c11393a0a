/**
 * Bundle the two command-line entry points (run by `npm run build`, after tsc), because Node's ESM
 * loader spends more on each of the ~160 files a command loads (95 of them zod's) than on the code in
 * them:
 *
 * - `basis-hooks claude-code` (dist/cli/claude-code-main.js) into dist/cli/claude-code/main.js. Claude
 *   Code starts a process per tool call: one file cuts its cold start by about a third.
 * - `basis-hooks` itself: dist/cli/main.js is replaced by its bundle, with lazy chunks beside it in
 *   dist/cli/ (~50 ms less per start: `--help` 220 → 170 ms, `check` 460 → 400 ms).
 *
 * What is only needed sometimes stays out of the startup path as lazy chunks (the component transport,
 * the kit, the MCP gateway, the HTTP server, the OTLP exporters). Every package but zod and the
 * OpenTelemetry API stays in node_modules: the OpenTelemetry SDK, jco, the
 * preview2 shim, the MCP SDK, and the kit's toolchains, which are optional peers loaded on demand.
 * Both outputs sit two directories below the package root, as every module of dist/ does, so a
 * module's `new URL('../../…', import.meta.url)` still finds the root; the worker entry of the
 * component transport is the one URL that must be pointed back at dist/.
 */
import { build } from 'esbuild';
import { readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/**
 * The component transport's workers start from `./worker-entry.js` relative to workers.js; in a bundle that
 * module is a chunk in `outdir`, so the URL is pointed back at dist/. If the source stops matching,
 * the build fails here rather than ship a bundle whose worker mode cannot start.
 */
function workerEntryRewrite(outdir) {
  return {
    name: 'worker-entry-rewrite',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/]transports[\\/]component[\\/]workers\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const pattern = "new URL('./worker-entry.js', here)";
        if (!source.includes(pattern)) {
          throw new Error(`bundle-cli: ${args.path} no longer contains ${pattern}; update scripts/bundle-cli.mjs`);
        }
        const entry = relative(outdir, join(dist, 'transports', 'component', 'worker-entry.js'));
        return { contents: source.replace(pattern, `new URL(${JSON.stringify(entry)}, here)`), loader: 'js' };
      });
    },
  };
}

/**
 * Every package import stays external except zod's and the OpenTelemetry API's (a bare specifier is a
 * package; `node:` ones are Node's): both are loaded by every command, and each is dozens of files.
 * A bundled copy of the API works with the SDK's own copy in node_modules (when a command exports):
 * the API keeps its registrations on `globalThis`, under a key shared by every copy of one major version.
 */
const BUNDLED = ['zod', '@opentelemetry/api'];
const packagesButZod = {
  name: 'packages-but-zod',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (BUNDLED.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const common = { bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none' };

// The Claude Code entry, in its own directory. Chunk names carry content hashes: clear the last build's.
const claudeCode = join(dist, 'cli', 'claude-code');
await rm(claudeCode, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: join(dist, 'cli', 'claude-code-main.js') },
  outdir: claudeCode,
  // Keep the shebang of the entry; chunks need none.
  plugins: [packagesButZod, workerEntryRewrite(claudeCode)],
});

// The agent hook client (`basis-hooks hook`), in its own directory: started per event as a fallback.
const hook = join(dist, 'cli', 'hook');
await rm(hook, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: join(dist, 'cli', 'hook-main.js') },
  outdir: hook,
  plugins: [packagesButZod, workerEntryRewrite(hook)],
});

// The main entry replaces tsc's dist/cli/main.js, so it is built in memory and written afterwards.
const cli = join(dist, 'cli');
for (const name of await readdir(cli)) if (/^chunk-[A-Z0-9]+\.js$/.test(name)) await rm(join(cli, name));
const main = await build({
  ...common,
  entryPoints: { main: join(cli, 'main.js') },
  outdir: cli,
  write: false,
  plugins: [packagesButZod, workerEntryRewrite(cli)],
});
for (const file of main.outputFiles) await writeFile(file.path, file.contents);
// tsc's map described the file the bundle replaced.
await rm(join(cli, 'main.js.map'), { force: true });
