import * as z from 'zod';
import { ToolPattern } from './tool-pattern.js';

/**
 * One `expose` rule of the MCP gateway: for the agents it names, which tools are listed and
 * callable. Patterns are the hooks' `tools` patterns (exact names, `*` globs, `{"regex": …}`).
 */
export const ExposeRule = z
  .strictObject({
    agents: z.array(ToolPattern).min(1).describe('The agent ids this rule is for: exact ids, * globs ("team-a-*", "*") or {"regex": ...}.'),
    tools: z.array(ToolPattern).describe('The tools these agents see in tools/list and may call; an empty list exposes none.'),
  })
  .describe('Which tools some agents may see and call through the MCP gateway.');
export type ExposeRule = z.infer<typeof ExposeRule>;

/** Top-level keys of the MCP gateway (spread into the config object of schema.ts). */
export const gatewayConfigKeys = {
  expose: z
    .array(ExposeRule)
    .optional()
    .describe(
      'MCP gateway: which tools each agent may list and call. The first rule whose agents match the call\'s agent_id decides; an agent no rule matches sees no tool. Absent: every agent sees every tool. A call to a tool not exposed is refused before any hook runs.',
    ),
};
