import type { HookEvent } from '../../contract/event.js';
import type { HookManifest } from '../manifest.js';

/** A manifest `init` writes (every language but WAT, which has no starter). */
type StarterManifest = Exclude<HookManifest, { lang: 'wat' }>;
import { outputPath } from '../manifest.js';
import { policySummary } from './policy.js';
import { installCommand } from '../../errors/package-missing-error.js';

const LANGUAGE_NAMES: Readonly<Record<StarterManifest['lang'], string>> = {
  js: 'JavaScript',
  ts: 'TypeScript',
  c: 'C',
  rust: 'Rust',
  assemblyscript: 'AssemblyScript',
};

/** The basis-hooks repository: the guides are there, not in the package the starter was made from. */
const REPOSITORY = 'https://github.com/basis-hooks/basis-hooks';

/** Where the language's own guide lives in the basis-hooks repository. */
const GUIDES: Readonly<Record<StarterManifest['lang'], string>> = {
  js: 'guest-examples/js/README.md',
  ts: 'guest-examples/js/README.md',
  c: 'guest-examples/c/README.md',
  rust: 'guest-examples/rust/README.md',
  assemblyscript: 'guest-examples/assemblyscript/README.md',
};

const TOOLCHAINS: Readonly<Record<StarterManifest['lang'], string>> = {
  js: 'The QuickJS engine, `npm install --save-dev componentize-qjs` (or SpiderMonkey: `npm install --save-dev @bytecodealliance/componentize-js`); `basis-hooks build` names the missing one.',
  ts: 'TypeScript 5.0 or later — 5 and 7 are tested (`npm install --save-dev typescript`; the hook is type-checked against `types/hook.d.ts`), then the engine as for JavaScript (`npm install --save-dev componentize-qjs`).',
  c: 'Debian: `apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32` (`BASIS_HOOKS_CLANG` picks another clang).',
  rust: 'Debian: `apt-get install -y rustc libstd-rust-dev-wasm32`; the kit calls `/usr/bin/rustc` (rustup\'s toolchains have no wasm targets here; `BASIS_HOOKS_RUSTC` picks another).',
  assemblyscript: 'The npm package `assemblyscript` (`npm install --save-dev assemblyscript`).',
};

/** The files of the starter besides hook.json, cases.jsonl and this README, one line each. */
function fileLines(manifest: StarterManifest): string[] {
  switch (manifest.lang) {
    case 'js':
      return [`| \`${manifest.source}\` | the hook: \`export function handle(request, context)\` |`, '| `types/hook.d.ts` | the request and answer shapes, for your editor (do not edit) |'];
    case 'ts':
      return [
        `| \`${manifest.source}\` | the hook: \`export function handle(request, context)\` |`,
        '| `types/hook.d.ts` | the request and answer shapes: the wire contract as TypeScript (do not edit) |',
        '| `tsconfig.json` | strict, no DOM or Node types (neither exists in a component) |',
      ];
    case 'c':
      return ['| `hook.c` | the hook |', '| `glue/basis_hook.h`, `glue/basis_hook.c` | the canonical-ABI glue (do not edit; see the C guide) |'];
    case 'rust':
      return ['| `hook.rs` | the hook |', '| `glue/basis_hook.rs` | the canonical-ABI glue (do not edit; see the Rust guide) |'];
    case 'assemblyscript':
      return [
        '| `hook.ts` | the hook |',
        '| `glue/hook.ts` | the canonical-ABI glue (do not edit) |',
        '| `glue/export-names.mjs` | asc transform renaming the exports, for building by hand (`basis-hooks build` does the same itself) |',
      ];
  }
}

function options(manifest: StarterManifest): string {
  switch (manifest.lang) {
    case 'js':
    case 'ts':
      return `The hook reads and answers the wire contract's shapes; \`basis-hooks build\` bundles the glue that speaks the WIT (the same under both engines). \`"engine"\` in \`hook.json\` is \`"quickjs"\` (~1.6 MB, faster to load and call; npm \`componentize-qjs\`) or \`"spidermonkey"\` (~11.6 MB, the more complete engine; npm \`@bytecodealliance/componentize-js\`). See the guide.`;
    case 'rust':
      return '`"flavour"` in `hook.json` is `"std"` (wasm32-wasi: `String`, `format!`) or `"nostd"` (wasm32-unknown-unknown: `core` only, a few KB). The starter builds either way.';
    default:
      return '';
  }
}

/** The starter's README: what it does, how to build and test it, how to use it. */
export function readmeText(manifest: StarterManifest, event: HookEvent): string {
  const out = outputPath(manifest);
  const extra = options(manifest);
  return `# ${manifest.name}

A basis-hooks **${event}** hook in ${LANGUAGE_NAMES[manifest.lang]}, built into a sandboxed WebAssembly
component for the \`basis:hook@1.0.0\` world. Made by \`basis-hooks init\`.

${policySummary(event)}

| file | what |
| --- | --- |
${fileLines(manifest).join('\n')}
| \`hook.json\` | how \`basis-hooks build\` builds it (language, sources, output) |
| \`cases.jsonl\` | table-driven tests: one call and the expected decision per line |

## Build and test

\`\`\`sh
basis-hooks build .                    # → ${out}
basis-hooks test . --cases cases.jsonl # every case must pass; --json for machines
basis-hooks inspect ${out}             # world, imports, size, sha256, whether it loads
\`\`\`

Toolchain: ${TOOLCHAINS[manifest.lang]} Every build also needs jco's transpiler, which makes the component and loads it to verify it (the host runs component hooks with it too): \`${installCommand('@bytecodealliance/jco-transpile')}\`.${extra === '' ? '' : `\n\n${extra}`}

A case is \`{"name": …, "call": <a tool call>, "expect": {"decision": "allow" | "deny" | "modify" | "replace", "reason"?, "input"?, "output"?, "is_error"?}}\`
or \`"expect": {"failure": "<code>"}\`; fields left out of \`expect\` are not compared. Each case runs
through the real runner at its call's event, so an answer for the wrong event is a failure, as in
production.

## Use it

\`\`\`json
{ "hook_schema": 1, "hooks": [
  { "name": "${manifest.name}", "event": "${event}", "component": "${out}" }
] }
\`\`\`

The guide for ${LANGUAGE_NAMES[manifest.lang]} hooks is [\`${GUIDES[manifest.lang]}\`](${REPOSITORY}/blob/main/${GUIDES[manifest.lang]}) in the basis-hooks repository;
[\`guest-examples/README.md\`](${REPOSITORY}/blob/main/guest-examples/README.md) there covers every language and the ABI.
`;
}
