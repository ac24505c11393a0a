import * as z from 'zod';
import { HooksConfig } from './schema.js';

/**
 * The JSON Schema of `hooks.json`, generated from the zod schema (the single source) for editors and
 * other tools. It describes what a file may contain (defaults are shown, not required); the
 * cross-field rules zod checks on top (unique names) are not expressible here.
 */
export function hooksJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(HooksConfig, { target: 'draft-2020-12', io: 'input', reused: 'inline' });
}

/** The schema as committed in `schema/hooks.schema.json`: two-space indented, with a trailing newline. */
export function hooksJsonSchemaText(): string {
  return `${JSON.stringify(hooksJsonSchema(), null, 2)}\n`;
}
