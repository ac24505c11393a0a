import { compileToolMatcher, type ToolPattern } from '../../runner/matcher.js';

/** One `expose` rule (the config's; see host/config/expose-schema.ts). */
export interface ExposeRuleInput {
  readonly agents: readonly ToolPattern[];
  readonly tools: readonly ToolPattern[];
}

/**
 * Which tools each identity may see and call (the config's `expose`): the first rule whose `agents`
 * match the agent id decides; an agent no rule matches sees nothing. Without rules, every agent
 * sees every tool.
 */
export class Exposure {
  readonly #rules: ReadonlyArray<{ readonly agents: (id: string) => boolean; readonly tools: (name: string) => boolean }> | undefined;
  /** Per agent id: the matcher its rule gives (rules are few, agents many: remembered). */
  readonly #cache = new Map<string, (name: string) => boolean>();

  constructor(rules: readonly ExposeRuleInput[] | undefined) {
    this.#rules = rules?.map((rule) => ({
      agents: compileToolMatcher(rule.agents),
      // An empty list exposes nothing (compileToolMatcher would read it as "every tool").
      tools: rule.tools.length === 0 ? () => false : compileToolMatcher(rule.tools),
    }));
  }

  /** Whether rules are configured (lists are then per identity: private to the caller). */
  get configured(): boolean {
    return this.#rules !== undefined;
  }

  /** Whether `agentId` may see and call `tool`. */
  allows(agentId: string, tool: string): boolean {
    if (this.#rules === undefined) return true;
    let matcher = this.#cache.get(agentId);
    if (matcher === undefined) {
      matcher = this.#rules.find((rule) => rule.agents(agentId))?.tools ?? (() => false);
      if (this.#cache.size > 10_000) this.#cache.clear();
      this.#cache.set(agentId, matcher);
    }
    return matcher(tool);
  }
}
