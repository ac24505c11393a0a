import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { createRunner } from '../config/create-runner.js';
import { loadConfig } from '../config/load.js';
import { isBasisHooksError } from '../errors/basis-hooks-error.js';
import { serveAgents, type ChainHolder } from '../integrations/agents/server.js';
import type { HookRunner } from '../runner/runner.js';
import { EXIT_OK, EXIT_USAGE } from './command.js';
import { startOtlpForCommand } from './otlp-option.js';
import { refusalLog, serverToken, type ServerOptions } from './server-options.js';

const PREFIX = 'basis-hooks serve:';

function describe(error: unknown): string {
  if (isBasisHooksError(error)) return error.name === 'ConfigError' ? error.message.replace(/\n+/g, '; ') : `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** One loaded chain and the calls still using it. */
interface Generation {
  readonly runner: HookRunner;
  readonly toolNames: 'native' | 'canonical';
  inFlight: number;
  retired: boolean;
}

/**
 * The chain a server answers with, reloaded atomically: a new config is loaded and its runner created
 * beside the old one; only when that succeeded do new events go to it, and the old runner is closed
 * once its last event is answered. A config that does not load is refused with a log line, and the
 * old chain keeps serving.
 */
class ReloadingChain implements ChainHolder {
  #current: Generation;
  #loading: Promise<void> | undefined;
  #again = false;
  readonly #file: string;
  readonly #log: (line: string) => void;

  constructor(file: string, first: Generation, log: (line: string) => void) {
    this.#file = file;
    this.#current = first;
    this.#log = log;
  }

  acquire(): { runner: HookRunner; toolNames: 'native' | 'canonical'; release(): void } {
    const generation = this.#current;
    generation.inFlight++;
    return {
      runner: generation.runner,
      toolNames: generation.toolNames,
      release: () => {
        generation.inFlight--;
        if (generation.retired && generation.inFlight === 0) void generation.runner.close();
      },
    };
  }

  /** Reload now (coalesced: a change during a load triggers one more). */
  reload(): Promise<void> {
    if (this.#loading !== undefined) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      do {
        this.#again = false;
        try {
          const next = await loadGeneration(this.#file);
          const old = this.#current;
          this.#current = next;
          old.retired = true;
          if (old.inFlight === 0) await old.runner.close();
          this.#log(`reloaded ${this.#file}: ${next.runner.hooks.length} hook(s)`);
        } catch (error) {
          this.#log(`config reload refused, the previous chain keeps serving: ${describe(error)}`);
        }
      } while (this.#again);
    })().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  /** Close the chain once every event in flight is answered. */
  async close(): Promise<void> {
    await this.#loading;
    const generation = this.#current;
    generation.retired = true;
    while (generation.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
    await generation.runner.close();
  }
}

async function loadGeneration(file: string): Promise<Generation> {
  const config = await loadConfig(file);
  const runner = await createRunner(config);
  return { runner, toolNames: config.tool_names ?? 'native', inFlight: 0, retired: false };
}

/** Options of {@link runServe}. */
export interface ServeOptions extends ServerOptions {
  readonly configFile: string;
  readonly socket?: string;
  readonly listen?: { readonly host: string; readonly port: number };
  /** `--otlp URL`: export traces and metrics there (the OTEL_* variables may turn export on too). */
  readonly otlp?: string;
}

/**
 * `basis-hooks serve`: load the chain once, answer every agent over a Unix socket (and loopback TCP
 * with a token), reload on config change, stop cleanly on SIGTERM/SIGINT (in-flight events answered).
 */
export async function runServe(options: ServeOptions): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`${PREFIX} ${line}\n`);
  const otlp = await startOtlpForCommand('serve', options.otlp, log);
  if (typeof otlp === 'string') {
    log(otlp);
    return EXIT_USAGE;
  }
  try {
    return await serveExporting(options, log);
  } finally {
    await otlp?.shutdown();
  }
}

async function serveExporting(options: ServeOptions, log: (line: string) => void): Promise<number> {
  let token: string | undefined;
  if (options.listen !== undefined) {
    const read = await serverToken(options.tokenFile === undefined ? options : options, log);
    if (typeof read === 'string') {
      log(read);
      return EXIT_USAGE;
    }
    if (read.token === undefined) {
      log('--listen needs --token-file: loopback TCP is reachable by every local process (and browser pages)');
      return EXIT_USAGE;
    }
    token = read.token;
  }
  let first: Generation;
  try {
    first = await loadGeneration(options.configFile);
  } catch (error) {
    log(describe(error));
    return EXIT_USAGE;
  }
  const chain = new ReloadingChain(options.configFile, first, log);
  let server;
  try {
    server = await serveAgents({
      chain,
      ...(options.socket === undefined ? {} : { socket: options.socket }),
      ...(options.listen === undefined || token === undefined ? {} : { tcp: { ...options.listen, token } }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      onRefusal: refusalLog(log),
    });
  } catch (error) {
    await chain.close();
    log(`cannot listen: ${describe(error)}`);
    return EXIT_USAGE;
  }
  log(`listening on ${server.urls.join(' and ')} with ${first.runner.hooks.length} hook(s) from ${options.configFile}`);
  // Watch the directory, not the file: editors and `pin` replace it by rename.
  let timer: NodeJS.Timeout | undefined;
  const file = path.resolve(options.configFile);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path.dirname(file), (_event, name) => {
      if (name !== null && name !== path.basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void chain.reload(), 100);
    });
  } catch (error) {
    log(`warning: cannot watch ${file} for changes (${describe(error)}); send SIGHUP to reload`);
  }
  const onHup = (): void => void chain.reload();
  process.on('SIGHUP', onHup);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log('stopping: answering the events in flight');
  watcher?.close();
  clearTimeout(timer);
  process.off('SIGHUP', onHup);
  await server.close();
  await chain.close();
  log('stopped');
  return EXIT_OK;
}
