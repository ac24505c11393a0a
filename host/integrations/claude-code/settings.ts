import type { HookEvent } from '../../contract/event.js';
import type { HookConfig, HooksConfig } from '../../config/schema.js';
import { SUBPROCESS_DEFAULTS } from '../../transports/subprocess/options.js';

/**
 * How Claude Code should reach the bridge: a command (fail closed: the bridge exits 2 on anything it
 * cannot decide), or an http hook with the headers to send (the bearer token) — paired with a
 * fail-closed guard command unless `guard` is false, because Claude Code lets a call proceed when an
 * http hook's server does not answer.
 */
export type BridgeEndpoint =
  | { readonly type: 'command'; readonly command: string }
  | { readonly type: 'http'; readonly url: string; readonly headers?: Readonly<Record<string, string>>; readonly guard?: boolean };

/** A command handler of `.claude/settings.json`. */
export interface CommandHandler {
  readonly type: 'command';
  readonly command: string;
  readonly timeout: number;
}

/** An http handler of `.claude/settings.json`. */
export interface HttpHandler {
  readonly type: 'http';
  readonly url: string;
  readonly timeout: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One matcher group of `.claude/settings.json`. */
export interface SettingsGroup {
  readonly matcher: string;
  readonly hooks: readonly (CommandHandler | HttpHandler)[];
}

/** The `hooks` block of `.claude/settings.json`. */
export interface ClaudeCodeSettings {
  readonly hooks: Partial<Record<'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure', SettingsGroup[]>>;
}

/** Default deadline of a component hook (the component transport's own default), in ms. */
const COMPONENT_TIMEOUT_MS = 1000;
/** A command hook stopped at its deadline gets SIGTERM, then SIGKILL this much later (plus slack). */
const KILL_GRACE_MS = 1500;
/** Process start, config load and (first time) component transpile, on top of the hooks' own deadlines. */
const STARTUP_MS = 30_000;
/** The guard command's own deadline (a health check on loopback), in seconds. */
const GUARD_TIMEOUT_S = 10;

/** A Cedar or CEL hook's share of the wait: its engine's load (in-process; a decision takes µs). */
const POLICY_MS = 1000;

/** A Claude Code matcher that is a list of exact names (`Edit|Write`, `Read, Grep`), not a regex. */
const NAME_LIST = /^[A-Za-z0-9_\-|, ]+$/;

/**
 * A Claude Code matcher for the tools of the hooks at one event: `*` when any hook takes every tool;
 * exact names joined with `|` (`Bash|Edit|Write`); with a glob or a `{regex}` among them, one regex
 * Claude Code searches in the tool name: the names and globs anchored (`^(Bash|mcp__github__.*)$`),
 * each `{regex}` as Claude Code itself reads it (a name list anchored, anything else unanchored), as
 * alternatives. Undefined when no hook can match (there is nothing to wire). The chain still applies
 * each hook's own matcher, so a broader Claude Code matcher only costs a start.
 */
export function matcherFor(hooks: readonly HookConfig[]): string | undefined {
  if (hooks.length === 0) return undefined;
  // A CEL `tools` entry has no Claude Code matcher: such a hook takes every call Claude Code sends it.
  if (hooks.some((hook) => hook.tools === undefined || hook.tools.some((p) => typeof p === 'object' && 'cel' in p))) return '*';
  const patterns = hooks.flatMap((hook) => hook.tools ?? []).filter((p): p is string | { regex: string } => typeof p === 'string' || 'regex' in p);
  if (patterns.length === 0) return undefined;
  if (patterns.some((p) => (typeof p === 'string' ? p === '*' : p.regex.trim() === '*'))) return '*';
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = [...new Set(patterns.filter((p): p is string => typeof p === 'string'))];
  const regexes = [...new Set(patterns.flatMap((p) => (typeof p === 'string' ? [] : [p.regex])))];
  if (regexes.length === 0 && names.every((tool) => !tool.includes('*'))) return names.map(escape).join('|');
  const alternatives: string[] = [];
  const anchored = names.map((tool) => tool.split('*').map(escape).join('.*'));
  for (const regex of regexes) {
    if (NAME_LIST.test(regex)) anchored.push(...regex.split(/[|,]/).map((n) => n.trim()).filter((n) => n !== '').map(escape));
    else alternatives.push(`(?:${regex})`);
  }
  if (anchored.length > 0) alternatives.unshift(`^(${anchored.join('|')})$`);
  return alternatives.join('|');
}

/**
 * How long Claude Code must wait for the bridge, in seconds: every hook at the event running to its
 * deadline, plus kill grace and start-up. Claude Code treats a hook it times out as a non-blocking
 * error — the call proceeds — so this errs long.
 */
export function timeoutFor(hooks: readonly HookConfig[]): number {
  let ms = STARTUP_MS;
  for (const hook of hooks) {
    if ('command' in hook) ms += (hook.timeout_ms ?? SUBPROCESS_DEFAULTS.timeout_ms) + KILL_GRACE_MS;
    else if ('component' in hook) ms += hook.timeout_ms ?? COMPONENT_TIMEOUT_MS;
    // Cedar and CEL hooks decide in-process, bounded: a second covers loading their engine.
    else ms += POLICY_MS;
  }
  return Math.ceil(ms / 1000);
}

/**
 * The `.claude/settings.json` `hooks` block that runs this config's chain as Claude Code hooks:
 * PreToolUse for the pre_tool_use hooks; PostToolUse and PostToolUseFailure (a tool that failed,
 * its error as the output) for the post_tool_use hooks.
 *
 * @example
 * settingsFor(config, { type: 'command', command: "node /opt/basis-hooks/dist/cli/main.js claude-code --config '/repo/hooks.json'" })
 */
export function settingsFor(config: HooksConfig, endpoint: BridgeEndpoint): ClaudeCodeSettings {
  const hooks: ClaudeCodeSettings['hooks'] = {};
  const wire = (event: HookEvent, names: readonly ('PreToolUse' | 'PostToolUse' | 'PostToolUseFailure')[]): void => {
    const atEvent = config.hooks.filter((hook) => hook.event === event);
    const matcher = matcherFor(atEvent);
    if (matcher === undefined) return;
    const timeout = timeoutFor(atEvent);
    for (const name of names) {
      if (endpoint.type === 'command') {
        hooks[name] = [{ matcher, hooks: [{ type: 'command', command: endpoint.command, timeout }] }];
        continue;
      }
      const http: HttpHandler = { type: 'http', url: endpoint.url, timeout, ...(endpoint.headers === undefined ? {} : { headers: endpoint.headers }) };
      hooks[name] = [{ matcher, hooks: endpoint.guard === false ? [http] : [http, { type: 'command', command: guardCommand(endpoint.url, name), timeout: GUARD_TIMEOUT_S }] }];
    }
  };
  wire('pre_tool_use', ['PreToolUse']);
  wire('post_tool_use', ['PostToolUse', 'PostToolUseFailure']);
  return { hooks };
}

/**
 * The fail-closed companion of an http hook. Claude Code runs every matching hook of an event in
 * parallel and a deny from any of them wins; a refused connection, a non-2xx answer or a timeout of
 * the http hook itself is only a non-blocking error (the call proceeds). So beside it runs this
 * command: a health check of the same server (`GET /healthz`, no token needed, nothing revealed), and
 * when that fails — server stopped, port taken by something else, `curl` missing — it prints the
 * event's JSON deny (PreToolUse) or block (after the call). JSON rather than exit 2: Claude Code shows
 * the model an exit-2 hook's whole command line.
 */
export function guardCommand(url: string, event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure'): string {
  const health = `${url.replace(/\/$/, '')}/healthz`;
  const reason = `basis-hooks: the hook server at ${url} does not answer, so this call is blocked (start it: basis-hooks claude-code --http)`;
  const answer =
    event === 'PreToolUse'
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }
      : { decision: 'block', reason };
  return `curl -sf -m 5 -o /dev/null ${shellQuote(health)} || printf '%s\\n' ${shellQuote(JSON.stringify(answer))}`;
}

/** Quote for a POSIX shell (Claude Code runs a command hook's string through one). */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
