import { relative } from 'node:path';
import { HOOK_EVENTS } from '../../contract/event.js';
import { installCommand } from '../../errors/package-missing-error.js';
import type { HookEvent } from '../../contract/event.js';
import { DEFAULT_JS_ENGINE, DEFAULT_LANGUAGE, DEFAULT_RUST_FLAVOUR, JsEngine, LANGUAGE_NOTES, LANGUAGES, RustFlavour, type Language } from '../../kit/languages.js';
import { POLICY_LANGUAGES, type PolicyLanguage } from '../../kit/templates/policies.js';
import { badChoice, parseCommandArgs } from '../args.js';
import { EXIT_OK, EXIT_USAGE, usageError, type Command } from '../command.js';
import { write } from '../io.js';
import { reportKitError } from '../kit-errors.js';

const usage = `Usage: basis-hooks init <dir> [--lang <language>] [--event <event>] [--name <hook>] [--force]

Create a working starter hook in <dir> for one event: its source (a tiny policy: at pre_tool_use,
the default, it denies "rm -rf /"; with --event post_tool_use it redacts GitHub tokens instead), the
language's canonical-ABI glue, hook.json (how "basis-hooks build" builds it), cases.jsonl (cases
that pass for the starter) and a README. For both, make two hooks (one per event).

Languages:
${LANGUAGES.map((l) => `  ${l.padEnd(16)}${LANGUAGE_NOTES[l]}`).join('\n')}

Building any of them also needs jco's transpiler, an optional peer of basis-hooks, which the host
runs component hooks with too: ${installCommand('@bytecodealliance/jco-transpile')}

Policy languages (policies are data: nothing to build; hooks.json, the policy, cases.jsonl; before
the call the starter denies "rm -rf /", after it withholds an output holding a private key):
  cedar           Cedar policies, a schema and entities; ${installCommand('@cedar-policy/cedar-wasm')}
  cel             CEL rules in hooks.json

The default is ${DEFAULT_LANGUAGE} on ${DEFAULT_JS_ENGINE}: no compiler, one npm package (componentize-qjs),
and QuickJS beats SpiderMonkey on what matters for a hook: ~1.6 MB instead of ~11.6 MB, a faster
first call and a faster call (measured figures: docs/performance.md in the package). JS and TS hooks read and answer the wire contract's shapes
({decision: "deny", reason}); build bundles the glue that speaks the WIT.

Options:
  -l, --lang <language>     ${[...LANGUAGES, ...POLICY_LANGUAGES].join(' | ')} (default ${DEFAULT_LANGUAGE})
  -e, --event <event>       ${HOOK_EVENTS.join(' | ')} (default pre_tool_use)
  -n, --name <hook>         the hook's name (default: the directory's name)
      --engine <engine>     js/ts only: ${JsEngine.options.join(' | ')} (default ${DEFAULT_JS_ENGINE})
      --flavour <flavour>   rust only: ${RustFlavour.options.join(' | ')} (default ${DEFAULT_RUST_FLAVOUR})
  -f, --force               write into a directory that is not empty
  -h, --help                show this help

Then: basis-hooks build <dir> && basis-hooks test <dir>   (a policy: basis-hooks test <dir>)
Exit status: 0 when the starter was written; 2 for a usage error, an unknown language or a
directory that is not empty.
`;

/** `basis-hooks init`: a starter hook in any supported language. */
export const initCommand: Command = {
  name: 'init',
  summary: 'create a starter hook (source, glue, build manifest, test cases)',
  usage,
  async run(args) {
    const parsed = parseCommandArgs(this, args, {
      lang: { type: 'string', short: 'l' },
      event: { type: 'string', short: 'e' },
      name: { type: 'string', short: 'n' },
      engine: { type: 'string' },
      flavour: { type: 'string' },
      force: { type: 'boolean', short: 'f' },
    }, { min: 1, max: 1, what: '<dir>' });
    if (typeof parsed === 'number') return parsed;
    const { lang = DEFAULT_LANGUAGE, event = 'pre_tool_use', name, engine, flavour, force } = parsed.values;
    const dir = parsed.positionals[0] ?? '';
    const problem =
      badChoice('language', lang, [...LANGUAGES, ...POLICY_LANGUAGES]) ??
      badChoice('event', event, HOOK_EVENTS) ??
      badChoice('engine', engine, JsEngine.options) ??
      badChoice('flavour', flavour, RustFlavour.options);
    if (problem !== undefined) return usageError(this, problem);
    if (engine !== undefined && lang !== 'js' && lang !== 'ts') return usageError(this, '--engine applies to --lang js or ts only');
    if (flavour !== undefined && lang !== 'rust') return usageError(this, '--flavour applies to --lang rust only');

    if ((POLICY_LANGUAGES as readonly string[]).includes(lang)) {
      if (engine !== undefined || flavour !== undefined) return usageError(this, '--engine and --flavour apply to code languages only');
      return initPolicy(this.name, dir, { lang: lang as PolicyLanguage, event: event as HookEvent, ...(name === undefined ? {} : { name }), force: force === true });
    }
    try {
      // Loaded on use: `basis-hooks run` should not pay for the kit at startup.
      const { initHook } = await import('../../kit/init.js');
      const result = await initHook(dir, {
        lang: lang as Language,
        event: event as HookEvent,
        ...(name === undefined ? {} : { name }),
        ...(engine === undefined ? {} : { engine: engine as JsEngine }),
        ...(flavour === undefined ? {} : { flavour: flavour as RustFlavour }),
        force: force === true,
      });
      const shown = relative(process.cwd(), result.dir) || '.';
      const variant = result.manifest.lang === 'js' || result.manifest.lang === 'ts' ? `, ${result.manifest.engine}` : result.manifest.lang === 'rust' ? `, ${result.manifest.flavour}` : '';
      await write(
        process.stdout,
        `created hook "${result.manifest.name}" (${result.manifest.lang}${variant}, ${result.manifest.event}) in ${shown}/\n` +
          result.files.map((f) => `  ${f}\n`).join('') +
          `\nnext:\n  basis-hooks build ${shown}\n  basis-hooks test ${shown}\n`,
      );
      return EXIT_OK;
    } catch (error) {
      const { text } = reportKitError(this.name, error);
      process.stderr.write(text);
      return EXIT_USAGE;
    }
  },
};

/** `init --lang cedar|cel`: a policy starter (nothing to build). */
async function initPolicy(command: string, dir: string, options: { lang: PolicyLanguage; event: HookEvent; name?: string; force: boolean }): Promise<number> {
  try {
    const { initPolicyHook } = await import('../../kit/init.js');
    const result = await initPolicyHook(dir, options);
    const shown = relative(process.cwd(), result.dir) || '.';
    await write(
      process.stdout,
      `created ${result.lang === 'cedar' ? 'Cedar' : 'CEL'} policy hook "${result.name}" (${result.event}) in ${shown}/\n` +
        result.files.map((f) => `  ${f}\n`).join('') +
        `\nnext (policies are data: nothing to build):\n  basis-hooks check --config ${shown}/hooks.json\n  basis-hooks test ${shown}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    const { text } = reportKitError(command, error);
    process.stderr.write(text);
    return EXIT_USAGE;
  }
}
