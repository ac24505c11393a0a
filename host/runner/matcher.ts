/**
 * Compile a hook's `tools` list into a predicate. Each entry is an exact tool name or a glob where `*`
 * matches any run of characters (`mcp__github__*`). Absent means every tool; an empty list matches none.
 */
export function compileToolMatcher(tools: readonly string[] | undefined): (toolName: string) => boolean {
  if (tools === undefined) return () => true;
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const tool of tools) {
    if (tool.includes('*')) {
      const body = tool.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
      patterns.push(new RegExp(`^${body}$`, 's'));
    } else {
      exact.add(tool);
    }
  }
  return (toolName) => exact.has(toolName) || patterns.some((p) => p.test(toolName));
}
