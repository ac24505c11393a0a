import { z } from 'zod';

/**
 * Any JSON value (object, array, string, number, boolean or null). Tool inputs and outputs are
 * JSON values; the contract never narrows them further.
 */
export const JsonValue = z.json();
export type JsonValue = z.infer<typeof JsonValue>;
