import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWatGuestsBuilt, watGuest, WAT_CONFORMANCE_DIR } from '../helpers/guests.js';
import { kit } from './kit.js';

interface Inspection {
  path: string;
  kind: string;
  size: number;
  sha256: string;
  world: { handler: string; version: string } | null;
  imports: Array<{ name: string; allowed: boolean; reason?: string }>;
  exports: string[];
  loads: boolean;
  load_failed?: { code: string; message: string };
}

beforeAll(async () => {
  await ensureWatGuestsBuilt();
}, 300_000);

describe('basis-hooks inspect', () => {
  it('a good component: world and version, exports, size, sha256, and that it loads (exit 0)', async () => {
    const path = join(WAT_CONFORMANCE_DIR, 'allow.wasm');
    const result = await kit(['inspect', path, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Inspection;
    expect(report).toMatchObject({ path, kind: 'component', world: { handler: 'basis:hook/handler@1.0.0', version: '1.0.0' }, loads: true });
    expect(report.exports).toEqual(['basis:hook/handler@1.0.0']);
    expect(report.imports).toEqual([{ name: 'basis:hook/types@1.0.0', allowed: true }]);
    expect(report.size).toBeGreaterThan(0);
    expect(report.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.load_failed).toBeUndefined();

    const text = await kit(['inspect', path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}world {4}basis:hook\/handler@1\.0\.0 \(basis:hook 1\.0\.0\)$/m);
    expect(text.stdout).toMatch(/^ {2}imports {2}basis:hook\/types@1\.0\.0 {2}allowed$/m);
    expect(text.stdout).toMatch(/^ {2}loads {4}yes \(/m);
    expect(text.stdout).toContain(`  sha256   ${report.sha256}\n`);
  });

  it('a component importing sockets: each refused import named, does not load (load_failed), exit 2', async () => {
    const result = await kit(['inspect', watGuest('sockets-import'), '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Inspection;
    expect(report.loads).toBe(false);
    expect(report.load_failed?.code).toBe('load_failed');
    const refused = report.imports.filter((i) => !i.allowed);
    expect(refused.map((i) => i.name.replace(/@.*/, ''))).toEqual(['wasi:sockets/network', 'wasi:sockets/instance-network']);
    expect(refused.every((i) => i.reason === 'not provided by the sandbox')).toBe(true);
    expect(report.imports.find((i) => i.name === 'basis:hook/types@1.0.0')?.allowed).toBe(true);

    const text = await kit(['inspect', watGuest('sockets-import')]);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/wasi:sockets\/network@\S+ +REFUSED: not provided by the sandbox/);
    expect(text.stdout).toMatch(/^ {2}loads {4}no: load_failed: /m);
  });

  it('a component against another major version of the handler: the version shown, does not load', async () => {
    const result = await kit(['inspect', watGuest('handler-v2'), '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Inspection;
    expect(report.world).toEqual({ handler: 'basis:hook/handler@2.0.0', version: '2.0.0' });
    expect(report.loads).toBe(false);
    expect(report.load_failed?.code).toBe('load_failed');
  });

  it('garbage bytes: not WebAssembly, no world, does not load, exit 2', async () => {
    const result = await kit(['inspect', watGuest('garbage'), '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Inspection;
    expect(report).toMatchObject({ kind: 'not-wasm', world: null, imports: [], exports: [], loads: false, load_failed: { code: 'load_failed' } });
  });

  it('a core module is told apart from a component', async () => {
    const result = await kit(['inspect', watGuest('core-module'), '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'core-module', loads: false });
  });

  it('a file that does not exist: exit 2 with the reason on stderr', async () => {
    const result = await kit(['inspect', '/nonexistent/hook.wasm']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('target_invalid');
    expect(result.stderr).toContain('/nonexistent/hook.wasm does not exist');
  });
});
