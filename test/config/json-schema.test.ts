import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HooksConfig, hooksJsonSchemaText } from '../../host/config/index.js';

const ROOT = new URL('../../', import.meta.url);

describe('schema/hooks.schema.json', () => {
  it('is what scripts/gen-schema.ts writes from the zod schema (run `npm run gen-schema` after changing it)', async () => {
    const committed = await readFile(new URL('schema/hooks.schema.json', ROOT), 'utf8');
    expect(committed).toBe(hooksJsonSchemaText());
  });

  it('has titles and descriptions, and closes every object to unknown keys', () => {
    const schema = JSON.parse(hooksJsonSchemaText()) as { title?: string; additionalProperties?: unknown; properties: { hooks: { items: { anyOf: { title?: string; additionalProperties?: unknown }[] } } } };
    expect(schema.title).toBeTruthy();
    expect(schema.additionalProperties).toBe(false);
    const variants = schema.properties.hooks.items.anyOf;
    expect(variants.map((v) => v.title)).toEqual(['Command hook', 'Component hook', 'Cedar hook', 'CEL hook']);
    for (const variant of variants) expect(variant.additionalProperties).toBe(false);
  });
});

describe('example configs', () => {
  it('every hooks.json under examples/ is a valid config', async () => {
    const examples = fileURLToPath(new URL('examples/', ROOT));
    const configs = (await readdir(examples, { recursive: true })).filter((f) => f === 'hooks.json' || f.endsWith('/hooks.json'));
    expect(configs.length).toBeGreaterThan(1);
    for (const file of configs) {
      const value: unknown = JSON.parse(await readFile(new URL(`examples/${file}`, ROOT), 'utf8'));
      const result = HooksConfig.safeParse(value);
      expect(result.success, `${file}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });
});
