/**
 * `no-rm-rf` — a pre_tool_use policy: no recursive `rm`, in any agent.
 *
 * One file, two hooks. `basis-hooks build` makes it a sandboxed WebAssembly component (QuickJS), which
 * `hooks.json` runs; `node command.mjs no-rm-rf.js` runs the very same module as a command hook, which
 * `hooks.command.json` runs. With `"tool_names": "canonical"` every agent's shell call arrives as
 * `shell {command}` — Claude Code's `Bash`, Gemini's `run_shell_command`, Cline's `run_commands`
 * (its commands joined by newlines) — so the policy needs no agent-specific case.
 *
 * The request and the answer are the wire contract's own shapes (docs/contract.md).
 */

/** `rm`, then any words, then a recursive flag (`-r`, `-R`, `-rf`, `-fr`, `--recursive`) before the command ends. */
const RECURSIVE_RM = /(?:^|[\s;&|(`])rm(?:\s+[^\s;&|]+)*?\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?=$|[\s;&|)`])/;

export const REASON = 'basis-hooks policy: recursive rm is not allowed';

export function handle(request) {
  // Registered at post_tool_use by mistake, it stays harmless.
  if (request.event !== 'pre_tool_use') return { decision: 'allow' };
  const input = request.input;
  const command = input !== null && typeof input === 'object' && typeof input.command === 'string' ? input.command : '';
  return RECURSIVE_RM.test(command) ? { decision: 'deny', reason: REASON } : { decision: 'allow' };
}
