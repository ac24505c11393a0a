import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { AGENT_NAMES, type AgentName } from '../../../host/integrations/agents/index.js';
import { planInstall } from '../../../host/integrations/agents/install/agents.js';
import { applyChanges } from '../../../host/integrations/agents/install/files.js';
import { ROOT } from '../../helpers/guests.js';

/*
 * install/uninstall for every agent: our hooks merged into the agent's settings keeping every other
 * hook and setting, a second install changing nothing, uninstall leaving the project's settings as
 * they were (the client script in .basis-hooks/ stays, as documented), --dry-run writing nothing.
 */

const POLICY = path.join(ROOT, 'examples', 'one-policy', 'hooks.command.json');

/** Another author's hook and settings, where each agent keeps them. */
const THEIRS: Record<AgentName, Record<string, string>> = {
  'claude-code': { '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] }, hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'their-guard.sh' }] }], Stop: [{ hooks: [{ type: 'command', command: 'their-stop.sh' }] }] } }) },
  qwen: { '.qwen/settings.json': JSON.stringify({ general: { vimMode: true }, hooks: { PreToolUse: [{ matcher: 'edit', hooks: [{ type: 'command', command: 'their-guard.sh', timeout: 5000 }] }] } }) },
  codex: { '.codex/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'their-guard.sh' }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'their-start.sh' }] }] } }) },
  gemini: { '.gemini/settings.json': JSON.stringify({ general: { disableAutoUpdate: true }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', name: 'theirs', command: 'their-guard.sh', timeout: 5000 }] }] } }) },
  copilot: { '.github/hooks/theirs.json': JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'their-guard.sh', timeoutSec: 5 }] } }) },
  cline: { '.clinerules/hooks/TaskStart': '#!/bin/sh\necho \'{"cancel": false}\'\n' },
  cursor: { '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: 'their-guard.sh' }], afterFileEdit: [{ command: 'their-format.sh' }] } }) },
  windsurf: { '.windsurf/hooks.json': JSON.stringify({ hooks: { pre_run_command: [{ command: 'their-guard.sh', show_output: true }] } }) },
  kiro: { '.kiro/agents/reviewer.json': JSON.stringify({ name: 'reviewer', hooks: { preToolUse: [{ matcher: 'fs_write', command: 'their-guard.sh' }] } }) },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'basis-install-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every file of the project but our client, by relative path. */
async function snapshot(project: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(project, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.relative(project, path.join(entry.parentPath, entry.name));
    if (!file.startsWith('.basis-hooks/')) out[file] = await readFile(path.join(project, file), 'utf8');
  }
  return out;
}

async function plan(agent: AgentName, project: string, uninstall = false): Promise<Awaited<ReturnType<typeof planInstall>>> {
  return planInstall({ agent, scope: 'project', project, home: path.join(dir, 'home'), config: await loadConfig(POLICY), configFile: POLICY, env: {}, uninstall });
}

describe('install and uninstall, every agent', () => {
  for (const agent of AGENT_NAMES) {
    it(`${agent}: merges keeping theirs, is idempotent, and uninstall leaves the project's settings as they were`, async () => {
      const project = path.join(dir, agent);
      for (const [file, text] of Object.entries(THEIRS[agent])) {
        await mkdir(path.dirname(path.join(project, file)), { recursive: true });
        await writeFile(path.join(project, file), text);
      }
      const before = await snapshot(project);
      // A dry run is a plan: nothing is written until it is applied.
      await plan(agent, project);
      expect(await snapshot(project)).toEqual(before);
      await applyChanges((await plan(agent, project)).changes);
      const once = await snapshot(project);
      for (const [file, text] of Object.entries(THEIRS[agent])) {
        const now = once[file];
        expect(now, `${agent}: ${file} kept`).toBeDefined();
        // Every one of their values is still there (ours are added beside them).
        if (file.endsWith('.json')) expect(JSON.stringify(JSON.parse(now as string))).toContain(JSON.stringify(JSON.parse(text)).slice(1, 40));
        else expect(now).toBe(text);
        for (const command of text.match(/their-[a-z]+\.sh/g) ?? []) expect(now, `${agent}: ${command}`).toContain(command);
      }
      expect(Object.values(once).join('\n'), `${agent}: ours written`).toContain('.basis-hooks/hook.sh');
      await applyChanges((await plan(agent, project)).changes);
      expect(await snapshot(project), `${agent}: a second install changes nothing`).toEqual(once);
      await applyChanges((await plan(agent, project, true)).changes);
      const after = await snapshot(project);
      // Their files exactly as they were (formatting aside); nothing of ours left in any settings file.
      for (const [file, text] of Object.entries(THEIRS[agent])) {
        expect(file.endsWith('.json') ? JSON.parse(after[file] as string) : after[file], `${agent}: ${file}`).toEqual(file.endsWith('.json') ? JSON.parse(text) : text);
      }
      expect(Object.values(after).join('\n'), `${agent}: nothing of ours left`).not.toContain('.basis-hooks/hook.sh');
      // No file of ours left behind either (an emptied settings file of theirs stays theirs).
      expect(Object.keys(after).sort(), `${agent}: files`).toEqual(Object.keys(before).sort());
    });
  }
});
