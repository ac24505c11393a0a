/**
 * Write `schema/hooks.schema.json` from the zod schema of `hooks.json` (the single source):
 * `npm run gen-schema`. A test fails when the committed file differs from what this would write.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { hooksJsonSchemaText } from '../host/config/json-schema.js';

/** Where the schema is committed (and shipped: package.json `files` includes `schema`). */
const SCHEMA_FILE = fileURLToPath(new URL('../schema/hooks.schema.json', import.meta.url));

await mkdir(fileURLToPath(new URL('../schema/', import.meta.url)), { recursive: true });
await writeFile(SCHEMA_FILE, hooksJsonSchemaText());
process.stderr.write(`wrote ${SCHEMA_FILE}\n`);
