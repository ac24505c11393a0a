/**
 * Build every example and test guest from source: `npm run build-guests [-- lang... --force]`.
 * Each language lives in `scripts/guests/<lang>.ts` and skips guests whose sources have not changed.
 */
import { parseArgs } from 'node:util';
import { ROOT } from './guests/jco.js';
import type { GuestBuilder } from './guests/types.js';

const LANGUAGES = ['wat', 'js', 'ts', 'rust', 'c', 'assemblyscript'] as const;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false } },
});

const wanted = positionals.length > 0 ? positionals : [...LANGUAGES];
for (const lang of wanted) {
  if (!(LANGUAGES as readonly string[]).includes(lang)) {
    process.stderr.write(`build-guests: unknown language "${lang}" (known: ${LANGUAGES.join(', ')})\n`);
    process.exit(2);
  }
}

for (const lang of wanted) {
  const started = Date.now();
  const builder = ((await import(`./guests/${lang}.js`)) as { default: GuestBuilder }).default;
  await builder.build({
    root: ROOT,
    force: values.force === true,
    log: (message) => process.stderr.write(`[${lang}] ${message}\n`),
  });
  process.stderr.write(`[${lang}] done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
