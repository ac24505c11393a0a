/**
 * The integrations ship as subpath exports (`basis-hooks/ai`, `basis-hooks/openai-agents`) built into
 * dist/, and the core never loads their frameworks: `ai` and `@openai/agents` are optional peers.
 * Needs `npm run build` (the `pretest` script runs it).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/guests.js';

const FRAMEWORKS = /^(ai|@openai\/agents[^/]*|@ai-sdk\/[^/]+)(\/|$)/;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { types?: string; default?: string } | string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every module specifier a JS/TS file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
}

describe('package exports', () => {
  it('each integration subpath points at built files, and its framework is an optional peer', () => {
    for (const [subpath, framework] of [['./ai', 'ai'], ['./openai-agents', '@openai/agents']] as const) {
      const entry = pkg.exports[subpath];
      expect(typeof entry === 'object' && entry.types && entry.default).toBeTruthy();
      if (typeof entry !== 'object') continue;
      expect(existsSync(join(ROOT, entry.types ?? '')), `${entry.types} missing: run npm run build`).toBe(true);
      expect(existsSync(join(ROOT, entry.default ?? '')), `${entry.default} missing: run npm run build`).toBe(true);
      expect(pkg.peerDependencies[framework]).toBeDefined();
      expect(pkg.peerDependenciesMeta[framework]?.optional).toBe(true);
    }
  });

  it('resolve through the package name, as a user imports them', async () => {
    const script = [
      "const ai = await import('basis-hooks/ai');",
      "const agents = await import('basis-hooks/openai-agents');",
      "const core = await import('basis-hooks');",
      'console.log(JSON.stringify({ ai: Object.keys(ai).sort(), agents: Object.keys(agents).sort(), runner: typeof core.HookRunner }));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({
      ai: ['ToolCallBlockedError', 'ToolCallNotJsonError', 'isToolCallBlockedError', 'withHooks'],
      agents: ['ToolCallBlockedError', 'ToolCallNotJsonError', 'hookTool', 'isToolCallBlockedError', 'withHooks'],
      runner: 'function',
    });
  });

  it('the core never imports a framework: nothing reachable from dist/index.js names one', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of specifiers(file)) {
        // Relative specifiers that are not files are code in a template string (the kit's), not imports.
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (existsSync(target) && target.endsWith('.js')) visit(target);
        }
        else bare.add(spec);
      }
    };
    const entry = join(ROOT, 'dist', 'index.js');
    expect(existsSync(entry), 'dist/index.js missing: run npm run build').toBe(true);
    visit(entry);
    expect([...seen].some((f) => relative(join(ROOT, 'dist'), f).startsWith('integrations'))).toBe(false);
    expect([...bare].filter((s) => FRAMEWORKS.test(s))).toEqual([]);
  });

  it('no source outside host/integrations imports a framework, nor an integration but the CLI (a shell over them)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) {
          if (path !== join(ROOT, 'host', 'integrations')) walk(path);
        } else if (e.name.endsWith('.ts')) {
          const cli = path.startsWith(join(ROOT, 'host', 'cli'));
          for (const spec of specifiers(path)) {
            if (FRAMEWORKS.test(spec) || (!cli && spec.includes('/integrations/'))) offenders.push(`${relative(ROOT, path)}: ${spec}`);
          }
        }
      }
    };
    walk(join(ROOT, 'host'));
    expect(offenders).toEqual([]);
  });
});
