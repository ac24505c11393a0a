import { relative } from 'node:path';
import { CLANG_ENV, RUSTC_ENV } from '../../kit/toolchains.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_OK, type Command } from '../command.js';
import { write } from '../io.js';
import { reportKitError } from '../kit-errors.js';

const usage = `Usage: basis-hooks build <dir> [--out <file.wasm>] [--json]

Build the hook in <dir> (made by "basis-hooks init"; its hook.json says how) into a WebAssembly
component, then load it exactly as the host will (world, import allowlist, instantiation) to verify
it. Progress goes to stderr, one line per step with the time elapsed.

  js, ts           in-process: QuickJS (npm componentize-qjs) or SpiderMonkey
                   (npm @bytecodealliance/componentize-js); ts is type-checked first by the
                   project's tsc (npm typescript 5.0 or later)
  c                clang --target=wasm32-wasi, then embed the world and jco new (+ WASI adapter if used)
  rust             /usr/bin/rustc, std (wasm32-wasi) or no_std (wasm32-unknown-unknown)
  assemblyscript   the npm package assemblyscript, in-process
  wat              WebAssembly text with an optional prelude (hook.json written by hand)

Options:
  -o, --out <file>   where to write the component (default: hook.json's "out", else build/<name>.wasm)
      --json         print the result as one JSON object
  -h, --help         show this help

Environment:
  ${CLANG_ENV}     the clang to use (default: clang on PATH)
  ${RUSTC_ENV}     the rustc to use (default: /usr/bin/rustc; rustup's has no wasm targets)

Exit status: 0 built and verified; 1 the hook does not compile or its component does not load;
2 usage error, invalid hook.json, or a missing toolchain (the message names what to install).
`;

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** `basis-hooks build`: a hook directory → a verified component. */
export const buildCommand: Command = {
  name: 'build',
  summary: 'build a hook directory into a verified component',
  usage,
  async run(args) {
    const parsed = parseCommandArgs(this, args, { out: { type: 'string', short: 'o' }, json: { type: 'boolean' } }, { min: 1, max: 1, what: '<dir>' });
    if (typeof parsed === 'number') return parsed;
    const dir = parsed.positionals[0] ?? '';
    const { out, json } = parsed.values;
    let result;
    try {
      // Loaded on use: `basis-hooks run` should not pay for the kit at startup.
      const { buildHookDir } = await import('../../kit/build/index.js');
      result = await buildHookDir(dir, {
        ...(out === undefined ? {} : { out }),
        onStep: ({ step, elapsed_ms }) => process.stderr.write(`basis-hooks build: [${(elapsed_ms / 1000).toFixed(1).padStart(5)} s] ${step}\n`),
      });
    } catch (error) {
      const { text, code } = reportKitError(this.name, error);
      process.stderr.write(text);
      return code;
    }
    // The CLI always verifies, so the loader's view of the component is there.
    const info = result.info ?? { handler: 'unverified', imports: [] };
    const imports = info.imports.filter((i) => !i.startsWith('basis:hook/types@'));
    if (json === true) {
      await write(process.stdout, `${JSON.stringify({ ok: true, out: result.out, lang: result.manifest.lang, size: result.size, sha256: result.sha256, handler: info.handler, imports: info.imports, wasi_adapter: result.wasi_adapter, ms: Math.round(result.ms), steps: result.steps.map((s) => ({ step: s.step, ms: Math.round(s.ms) })) })}\n`);
    } else {
      const shown = relative(process.cwd(), result.out) || result.out;
      await write(
        process.stdout,
        `built ${shown} (${kb(result.size)}, ${info.handler}, imports: ${imports.length === 0 ? 'none' : imports.join(', ')}) in ${(result.ms / 1000).toFixed(1)} s\n` +
          `sha256 ${result.sha256}\n`,
      );
    }
    return EXIT_OK;
  },
};
