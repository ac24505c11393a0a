import type { HooksConfig } from '../config/schema.js';
import type { AgentName } from '../integrations/agents/names.js';
import { agentDialect } from '../integrations/agents/registry.js';

const MEANING: Record<string, string> = {
  apply: 'honoured',
  block: 'BLOCKED instead (the agent cannot apply it; the call is refused with the reason)',
  as_error: 'shown to the model as an error text in place of the result',
  annotate: 'NOT enforced: the original result still reaches the model, the reason beside it',
  none: 'NOT enforced: the agent takes no decision after the call',
};

/** `check --agent X`: which of the chain's possible decisions that agent can honour. */
export function agentCheck(config: HooksConfig, agent: AgentName): { readonly text: string; readonly enforced: boolean } {
  const dialect = agentDialect(agent);
  const caps = dialect.capabilities;
  const pre = config.hooks.filter((h) => h.event === 'pre_tool_use').length;
  const post = config.hooks.filter((h) => h.event === 'post_tool_use').length;
  const rows: Array<[string, string]> = [];
  if (pre > 0) {
    rows.push(['pre_tool_use deny', 'honoured (the agent\'s own blocking form)']);
    rows.push(['pre_tool_use modify', MEANING[caps.modify] ?? caps.modify]);
  }
  if (post > 0) {
    rows.push(['post_tool_use deny', MEANING[caps.postDeny] ?? caps.postDeny]);
    rows.push(['post_tool_use replace', MEANING[caps.replace] ?? caps.replace]);
  }
  const enforced = !rows.some(([, v]) => v.startsWith('NOT'));
  const width = Math.max(...rows.map(([k]) => k.length), 10);
  const text =
    `${dialect.title} (checked against: ${dialect.checked}); hook timeouts in ${caps.timeoutUnit === 'ms' ? 'milliseconds' : 'seconds'}\n` +
    (rows.length === 0 ? 'no hooks: nothing to decide\n' : rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('')) +
    (config.tool_names === 'canonical' ? '  tool names: canonical (see the agent\'s table in docs/agents/)\n' : '');
  return { text, enforced };
}
