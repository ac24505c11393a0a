import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KitError } from '../errors/kit-error.js';
import { ToolchainMissingError } from '../errors/toolchain-missing-error.js';
import type { JsEngine } from '../languages.js';
import { WIT_FILE, WIT_WORLD } from '../package-files.js';
import { SPIDERMONKEY_TOOLCHAIN } from '../toolchains.js';
import { enableBuildFilesystem } from './jco.js';
import type { Steps } from './progress.js';

/**
 * Every WASI feature componentize-js knows (its defaults), all disabled: a hook that needs none imports
 * none. Its API silently ignores `['all']` (only its CLI expands that), hence the list.
 */
const SPIDERMONKEY_DISABLED_FEATURES = ['stdio', 'random', 'clocks', 'http', 'fetch-event'] as const;

interface QuickJs {
  componentize(options: { witPath: string; jsSource: string; jsPath: string; world: string; stubWasi: boolean; sync: boolean }): Promise<{ component: Uint8Array }>;
}

interface SpiderMonkey {
  componentize(options: { sourcePath: string; witPath: string; worldName: string; disableFeatures: string[] }): Promise<{ component: Uint8Array }>;
}

/**
 * componentize-qjs (what `jco componentize --backend quickjs` runs) is a dependency of jco, so it is
 * resolved from jco's location: it comes with basis-hooks, nothing to install.
 */
async function loadQuickJs(): Promise<QuickJs> {
  const fromJco = createRequire(import.meta.resolve('@bytecodealliance/jco'));
  try {
    return (await import(pathToFileURL(fromJco.resolve('componentize-qjs')).href)) as QuickJs;
  } catch (error) {
    throw new ToolchainMissingError('JavaScript (QuickJS)', 'componentize-qjs (a dependency of @bytecodealliance/jco) was not found', { packages: ['@bytecodealliance/jco'], command: 'npm install @bytecodealliance/jco' }, { cause: error });
  }
}

async function loadSpiderMonkey(): Promise<SpiderMonkey> {
  try {
    return (await import('@bytecodealliance/componentize-js')) as unknown as SpiderMonkey;
  } catch (error) {
    throw new ToolchainMissingError('JavaScript (SpiderMonkey)', 'the npm package @bytecodealliance/componentize-js was not found', SPIDERMONKEY_TOOLCHAIN, { cause: error });
  }
}

function compileError(engine: JsEngine, source: string, error: unknown): KitError {
  const detail = error instanceof Error ? error.message : String(error);
  return new KitError('build_failed', `componentizing ${source} with ${engine === 'quickjs' ? 'QuickJS' : 'SpiderMonkey'} failed:\n${detail.trim()}`, { cause: error });
}

/**
 * Componentize a JavaScript module exporting `handler` for the `hook` world, in-process: QuickJS with
 * every WASI import stubbed and the synchronous ABI (Node 20 cannot run the async one), or SpiderMonkey
 * with every WASI feature disabled. Either way the component imports nothing but the WIT's types.
 */
export async function componentizeJs(source: string, engine: JsEngine, steps: Steps, shown = source): Promise<Uint8Array> {
  if (engine === 'quickjs') {
    const qjs = await steps.run('load QuickJS (componentize-qjs)', loadQuickJs);
    return steps.run(`componentize ${shown} with QuickJS`, async () => {
      try {
        const { component } = await qjs.componentize({ witPath: WIT_FILE, jsSource: await readFile(source, 'utf8'), jsPath: source, world: WIT_WORLD, stubWasi: true, sync: true });
        return new Uint8Array(component);
      } catch (error) {
        throw compileError(engine, shown, error);
      }
    });
  }
  const sm = await steps.run('load SpiderMonkey (componentize-js)', async () => {
    await enableBuildFilesystem();
    return loadSpiderMonkey();
  });
  return steps.run(`componentize ${shown} with SpiderMonkey (takes ~10 s)`, async () => {
    // componentize-js maps the working directory to `/` while it snapshots the engine, and relative
    // imports resolve inside it: pin it to the entry's directory (as `jco componentize` does).
    const callerCwd = process.cwd();
    process.chdir(dirname(source));
    try {
      const { component } = await sm.componentize({ sourcePath: source, witPath: WIT_FILE, worldName: WIT_WORLD, disableFeatures: [...SPIDERMONKEY_DISABLED_FEATURES] });
      return new Uint8Array(component);
    } catch (error) {
      throw compileError(engine, shown, error);
    } finally {
      process.chdir(callerCwd);
    }
  });
}
