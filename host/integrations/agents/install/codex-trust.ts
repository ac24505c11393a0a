import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyChanges, InstallError } from './files.js';
import { OURS } from './script.js';

/** One hook as `codex app-server`'s `hooks/list` reports it. */
interface ListedHook {
  readonly key?: string;
  readonly command?: string;
  readonly currentHash?: string;
  readonly trustStatus?: string;
}

/** Ask a Codex binary for its hooks (`initialize`, then `hooks/list` for the project). */
export function codexHooksList(codex: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 20_000): Promise<readonly ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex, ['app-server'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    let settled = false;
    const finish = (error: Error | undefined, hooks?: readonly ListedHook[]): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill();
      if (error !== undefined) reject(error);
      else resolve(hooks ?? []);
    };
    const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    child.on('error', (error) => finish(new InstallError('untrusted', `cannot start ${codex} app-server (${error.message})`)));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.on('close', () => finish(new InstallError('untrusted', `${codex} app-server ended before listing its hooks: ${stderr.trim().slice(-300)}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line === '') continue;
        let message: { id?: unknown; result?: { data?: Array<{ hooks?: ListedHook[] }> }; error?: { message?: string } };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          continue;
        }
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'initialized', params: {} });
          send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message.id === 2) {
          if (message.error !== undefined) finish(new InstallError('untrusted', `codex hooks/list failed: ${message.error.message ?? 'error'}`));
          else finish(undefined, (message.result?.data ?? []).flatMap((d) => d.hooks ?? []));
        }
      }
    });
    const timer = setTimeout(() => finish(new InstallError('untrusted', `${codex} app-server did not list its hooks within ${timeoutMs} ms`)), timeoutMs);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'basis-hooks', version: '1' } } });
  });
}

/** Set `key = value` in the TOML table `[header]` of `text`: replaced in place, or the table appended. */
export function upsertTomlTable(text: string, header: string, key: string, value: string): string {
  const line = `${key} = ${JSON.stringify(value)}`;
  const head = `[${header}]`;
  const at = text.split('\n').findIndex((l) => l.trim() === head);
  if (at < 0) return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n${head}\n${line}\n`;
  const lines = text.split('\n');
  let end = at + 1;
  while (end < lines.length && !(lines[end] ?? '').trim().startsWith('[')) end++;
  const existing = lines.slice(at + 1, end).findIndex((l) => new RegExp(`^\\s*${key}\\s*=`).test(l));
  if (existing >= 0) lines[at + 1 + existing] = line;
  else lines.splice(at + 1, 0, line);
  return lines.join('\n');
}

/**
 * Make Codex load our hooks: trust the project layer (`[projects."<dir>"] trust_level = "trusted"`,
 * for project hooks), then trust each of our hooks by the hash Codex itself computes (`codex
 * app-server` → `hooks/list` → `currentHash`, written as `[hooks.state."<key>"] trusted_hash`), then
 * list again and require every one of ours to be trusted — a hook Codex silently skips is the worst
 * failure. Resolves to the number of our hooks now trusted.
 */
export async function trustCodexHooks(options: { readonly codex: string; readonly codexHome: string; readonly project: string; readonly scope: 'project' | 'user'; readonly env: NodeJS.ProcessEnv }): Promise<number> {
  const configFile = path.join(options.codexHome, 'config.toml');
  const env = { ...options.env, CODEX_HOME: options.codexHome };
  let text = await readFile(configFile, 'utf8').catch(() => '');
  if (options.scope === 'project') text = upsertTomlTable(text, `projects.${JSON.stringify(options.project)}`, 'trust_level', 'trusted');
  await applyChanges([{ kind: 'write', file: configFile, text }]);
  const ours = (await codexHooksList(options.codex, env, options.project)).filter((h) => h.command?.includes(OURS) === true && h.key !== undefined && h.currentHash !== undefined);
  if (ours.length === 0) throw new InstallError('untrusted', `Codex does not list the installed hooks (is the project at ${options.project} the one Codex runs in?): they would be skipped`);
  for (const hook of ours) text = upsertTomlTable(text, `hooks.state.${JSON.stringify(hook.key)}`, 'trusted_hash', hook.currentHash as string);
  await applyChanges([{ kind: 'write', file: configFile, text }]);
  const after = (await codexHooksList(options.codex, env, options.project)).filter((h) => h.command?.includes(OURS) === true);
  const untrusted = after.filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed');
  if (untrusted.length > 0) throw new InstallError('untrusted', `Codex still reports ${untrusted.length} of our hooks as ${untrusted.map((h) => h.trustStatus ?? '?').join(', ')}: they would be skipped`);
  return after.length;
}
