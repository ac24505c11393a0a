import * as z from 'zod';
import { TOOL_GLOB_PATTERN, toolPatternProblem } from '../runner/matcher.js';

/**
 * One `tools` entry. The schema shapes (and the JSON Schema `pattern`) are for editors; what is
 * accepted is decided by the runner's own rule ({@link toolPatternProblem}), so the config and
 * `new HookRunner` can never disagree. config/issues.ts words the errors.
 */
export const ToolPattern = z
  .union([
    z
      .string()
      .regex(new RegExp(TOOL_GLOB_PATTERN))
      .describe('An exact tool name ("shell"), or a glob where * matches any run of characters ("mcp__github__*", "*"). Regex syntax is refused: use {"regex": ...}.'),
    z
      .strictObject({
        regex: z
          .string()
          .min(1)
          .describe(
            'A Claude Code matcher, evaluated as Claude Code does: "*" = every tool; names joined by | or , = those exact names ("Edit|Write"); anything else = a JavaScript regex searched in the tool name, unanchored ("mcp__github__.*").',
          ),
      })
      .describe('A Claude Code matcher / regex, e.g. {"regex": "mcp__github__.*"} or {"regex": "Edit|Write"}.'),
  ])
  .superRefine((pattern, ctx) => {
    const problem = toolPatternProblem(pattern);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: pattern });
  });
