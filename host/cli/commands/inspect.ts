import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HookInspection } from '../../kit/inspect.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_OK, EXIT_USAGE, type Command } from '../command.js';
import { write } from '../io.js';
import { reportKitError } from '../kit-errors.js';

const usage = `Usage: basis-hooks inspect <hook.wasm | dir> [--json]

Show what a component is and whether this host can run it: world and version, every import with
whether the sandbox allows it, exports, size, sha256 — and whether it loads, found by loading it the
way a hook is loaded (transpile, compile with the memory cap, instantiate) and closing it again.
Given a hook directory made by "basis-hooks init", inspects the component it builds.

Options:
      --json    print the report as one JSON object
  -h, --help    show this help

Exit status: 0 when it loads; 2 when it does not (the load_failed message says why), or for a usage
error, a missing or unreadable file, or a directory that is not a built hook directory.
`;

function format(r: HookInspection): string {
  const width = Math.max(0, ...r.imports.map((i) => i.name.length));
  const imports = r.imports.length === 0 ? ['(none)'] : r.imports.map((i) => `${i.name.padEnd(width)}  ${i.allowed ? 'allowed' : `REFUSED: ${i.reason ?? ''}`}`);
  const rows: Array<[string, string[]]> = [
    ['kind', [r.kind]],
    ['size', [`${r.size} bytes (${(r.size / 1024).toFixed(1)} KB)`]],
    ['sha256', [r.sha256]],
    ['world', [r.world === null ? '(no basis:hook/handler export)' : `${r.world.handler} (basis:hook ${r.world.version})`]],
    ['imports', imports],
    ['exports', r.exports.length === 0 ? ['(none)'] : [...r.exports]],
    [
      'loads',
      [
        r.loads
          ? `yes (transpile ${Math.round(r.load_ms?.transpile ?? 0)} ms, compile ${Math.round(r.load_ms?.compile ?? 0)} ms, instantiate ${Math.round(r.load_ms?.instantiate ?? 0)} ms)`
          : `no: ${r.load_failed?.code ?? 'load_failed'}: ${r.load_failed?.message ?? ''}`,
      ],
    ],
  ];
  const lines = [r.path];
  for (const [label, values] of rows) values.forEach((value, i) => lines.push(`  ${(i === 0 ? label : '').padEnd(9)}${value}`));
  return `${lines.join('\n')}\n`;
}

/**
 * The component a path stands for: a file as given; a hook directory's built component (as `test
 * <dir>` does). Anything else is refused by a `KitError` saying what was expected, never a raw
 * EISDIR/ENOENT.
 */
async function componentOf(target: string): Promise<string> {
  const [{ KitError }, { MANIFEST_FILE, outputPath, readManifest }] = await Promise.all([
    import('../../kit/errors/kit-error.js'),
    import('../../kit/manifest.js'),
  ]);
  const info = await stat(target).catch(() => undefined);
  if (info === undefined) throw new KitError('target_invalid', `${target} does not exist`);
  if (!info.isDirectory()) return target;
  if (!existsSync(join(target, MANIFEST_FILE))) {
    throw new KitError(
      'target_invalid',
      `${target} is a directory, not a component: give a .wasm file, or a hook directory made by "basis-hooks init" (it has ${MANIFEST_FILE})`,
    );
  }
  const component = resolve(target, outputPath(await readManifest(resolve(target))));
  if (!existsSync(component)) throw new KitError('target_invalid', `${component} does not exist: build it first (basis-hooks build ${target})`);
  return component;
}

/** `basis-hooks inspect`: what is in this component, and will it load? */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show a component\'s world, imports, size, sha256 and whether it loads',
  usage,
  async run(args) {
    const parsed = parseCommandArgs(this, args, { json: { type: 'boolean' } }, { min: 1, max: 1, what: '<hook.wasm | dir>' });
    if (typeof parsed === 'number') return parsed;
    let report: HookInspection;
    try {
      const { inspectHook } = await import('../../kit/inspect.js');
      report = await inspectHook(await componentOf(parsed.positionals[0] ?? ''));
    } catch (error) {
      const { text } = reportKitError(this.name, error);
      process.stderr.write(text);
      return EXIT_USAGE;
    }
    await write(process.stdout, parsed.values.json === true ? `${JSON.stringify(report)}\n` : format(report));
    return report.loads ? EXIT_OK : EXIT_USAGE;
  },
};
