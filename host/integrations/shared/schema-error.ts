/**
 * One line naming what a schema rejected, from a Standard Schema / zod error (`issues` with `path` and
 * `message`) or any other error's message.
 */
export function describeSchemaError(error: unknown): string {
  const issues = (error as { issues?: unknown } | null | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: readonly unknown[]; message?: unknown }) => {
        const path = (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String((p as { key: unknown }).key) : String(p))).join('.');
        return `${path === '' ? '(root)' : path}: ${String(issue.message)}`;
      })
      .join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}
