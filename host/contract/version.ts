/**
 * Version of the hook wire format. Bumped when a change would break a hook that reads the current
 * shape. Every request carries it as `hook_schema`, so the first thing a hook can check is whether it
 * still understands basis.
 */
export const HOOK_SCHEMA_VERSION = 1 as const;
