import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCGuest } from '../../helpers/c-guest.js';
import { ensureGuestsBuilt, guestBuildDir, ROOT } from '../../helpers/guests.js';
import { connect, connectDirect, FILESYSTEM, type Connected } from '../../helpers/mcp.js';
import { missingToolchain } from '../../kit/kit.js';

/*
 * The official SDK Client ↔ `basis-hooks mcp` ↔ @modelcontextprotocol/server-filesystem in a temp
 * directory, with a chain of real hooks: a C component guard denying writes outside sandbox/, a
 * subprocess hook pinning relative paths under sandbox/, and the C redactor component on reads.
 */

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** The write guard is built from C at test time: without clang (never in CI) this file is skipped. */
const NO_CLANG = missingToolchain('c');

let root: string;
let config: string;
const open: Connected[] = [];

beforeAll(async () => {
  if (NO_CLANG !== undefined) return;
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'basis-mcp-fs-')));
  await mkdir(path.join(root, 'sandbox'));
  await writeFile(path.join(root, 'secrets.txt'), `token=${GITHUB_TOKEN}\naws=${AWS_KEY}\n`);
  await writeFile(path.join(root, 'plain.txt'), 'nothing to see\n');
  await ensureGuestsBuilt('c', [path.join(guestBuildDir('c'), 'redact.wasm')]);
  const guard = await buildCGuest('write-guard', path.join(ROOT, 'test/fixtures/mcp/write_guard.c'));
  config = path.join(root, 'hooks.json');
  await writeFile(
    config,
    JSON.stringify({
      hook_schema: 1,
      hooks: [
        { name: 'pin-path', event: 'pre_tool_use', tools: ['write_file', 'create_directory'], command: [process.execPath, path.join(ROOT, 'test/fixtures/mcp/pin_path.mjs')] },
        { name: 'write-guard', event: 'pre_tool_use', tools: ['write_file', 'edit_file', 'create_directory', 'move_file'], component: guard },
        { name: 'redact', event: 'post_tool_use', tools: ['read_text_file', 'read_file', 'read_multiple_files'], component: path.join(guestBuildDir('c'), 'redact.wasm') },
      ],
    }),
  );
}, 120_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.close().catch(() => undefined)));
});
afterAll(() => (root === undefined ? undefined : rm(root, { recursive: true, force: true })));

async function gateway(hooksConfig = config, flags: string[] = []): Promise<Connected> {
  const c = await connect(hooksConfig, [...FILESYSTEM, root], { flags: ['--workspace', root, ...flags] });
  open.push(c);
  return c;
}

const textOf = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

describe.skipIf(NO_CLANG !== undefined)(`mcp gateway ↔ server-filesystem: a chain of real hooks${NO_CLANG === undefined ? '' : ` (skipped: ${NO_CLANG})`}`, () => {
  it('a write outside sandbox/ is denied by the component guard: isError with its reason, and nothing is written', async () => {
    const via = await gateway();
    const target = path.join(root, 'escaped.txt');
    const result = await via.client.callTool({ name: 'write_file', arguments: { path: target, content: 'x' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'write-guard: writes are only allowed under a sandbox/ directory' }], isError: true });
    expect(existsSync(target)).toBe(false);
    // move_file's destination is checked too.
    await writeFile(path.join(root, 'sandbox', 'keep.txt'), 'keep');
    const moved = await via.client.callTool({ name: 'move_file', arguments: { source: path.join(root, 'sandbox', 'keep.txt'), destination: path.join(root, 'keep.txt') } });
    expect(moved.isError).toBe(true);
    expect(existsSync(path.join(root, 'sandbox', 'keep.txt'))).toBe(true);
  });

  it('a write inside sandbox/ goes through, exactly as the server answers it', async () => {
    const via = await gateway();
    const target = path.join(root, 'sandbox', 'inside.txt');
    const result = await via.client.callTool({ name: 'write_file', arguments: { path: target, content: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(`Successfully wrote to ${target}`);
    expect(await readFile(target, 'utf8')).toBe('hello');
  });

  it('a relative path is pinned under sandbox/ (modify), and the guard after it sees the pinned path', async () => {
    const via = await gateway(config, ['--trail']);
    const result = await via.client.callTool({ name: 'write_file', arguments: { path: 'notes.txt', content: 'pinned' } });
    expect(result.isError).toBeFalsy();
    const pinned = path.join(root, 'sandbox', 'notes.txt');
    expect(textOf(result)).toBe(`Successfully wrote to ${pinned}`);
    expect(await readFile(pinned, 'utf8')).toBe('pinned');
    // The audit trail (on stderr with --trail) shows both hooks, in order.
    await via.client.close();
    const lines = via.gateway.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { tool: string; trail: { hook: string; decision: string }[] });
    const write = lines.find((l) => l.tool === 'write_file');
    expect(write?.trail.map((t) => [t.hook, t.decision])).toEqual([['pin-path', 'modify'], ['write-guard', 'allow']]);
  });

  it('secrets in read_text_file results are replaced by the redactor before the client sees them', async () => {
    const via = await gateway();
    const result = await via.client.callTool({ name: 'read_text_file', arguments: { path: path.join(root, 'secrets.txt') } });
    const json = JSON.stringify(result);
    expect(json).not.toContain(GITHUB_TOKEN);
    expect(json).not.toContain(AWS_KEY);
    // The redactor saw the whole result (the text item and structuredContent) and rewrote both: the
    // model still reads plain text, in the shape the server gave it — not the redacted JSON.
    expect(result.structuredContent).toEqual({ content: 'token=[REDACTED]\naws=[REDACTED]\n' });
    expect(result.content).toEqual([{ type: 'text', text: 'token=[REDACTED]\naws=[REDACTED]\n' }]);
    expect(result.isError).toBe(false);
  });

  it('a read with nothing to redact is the server\'s own answer, unchanged', async () => {
    const direct = await connectDirect([...FILESYSTEM, root]);
    open.push(direct);
    const via = await gateway();
    const args = { path: path.join(root, 'plain.txt') };
    expect(await via.client.callTool({ name: 'read_text_file', arguments: args })).toEqual(await direct.client.callTool({ name: 'read_text_file', arguments: args }));
    // Tools no hook matches are untouched too.
    expect(await via.client.callTool({ name: 'list_directory', arguments: { path: root } })).toEqual(
      await direct.client.callTool({ name: 'list_directory', arguments: { path: root } }),
    );
  });
});

describe.skipIf(NO_CLANG !== undefined)('mcp gateway ↔ server-filesystem: hooks that fail', () => {
  async function configWith(hooks: Record<string, unknown>[]): Promise<string> {
    const file = path.join(root, `hooks-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify({ hook_schema: 1, hooks }));
    return file;
  }

  it('a pre hook that crashes fails closed: the call is answered with isError naming the hook, and never made', async () => {
    const via = await gateway(await configWith([{ name: 'flaky-guard', event: 'pre_tool_use', command: 'cat >/dev/null; echo boom >&2; exit 3' }]));
    const target = path.join(root, 'sandbox', 'never.txt');
    const result = await via.client.callTool({ name: 'write_file', arguments: { path: target, content: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^hook "flaky-guard" failed \(exit_nonzero: [^)]*\); the call was denied \(fail closed\)$/);
    expect(existsSync(target)).toBe(false);
  });

  it('a post hook that hangs past its deadline withholds the output: isError naming the hook, not a hung call', async () => {
    const via = await gateway(await configWith([{ name: 'slow-redactor', event: 'post_tool_use', timeout_ms: 300, command: 'cat >/dev/null; sleep 30' }]));
    const result = await via.client.callTool({ name: 'read_text_file', arguments: { path: path.join(root, 'secrets.txt') } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^hook "slow-redactor" failed \(timeout: [^)]*\); the output was withheld \(fail closed\)$/);
    expect(JSON.stringify(result)).not.toContain(GITHUB_TOKEN);
  });

  it('a modify that is not an object fails that hook (MCP arguments are objects)', async () => {
    const via = await gateway(await configWith([{ name: 'stringify', event: 'pre_tool_use', command: `cat >/dev/null; echo '{"decision":"modify","input":"rm -rf /"}'` }]));
    const result = await via.client.callTool({ name: 'list_directory', arguments: { path: root } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^hook "stringify" failed \(malformed_response: [^)]*\);/);
  });

  it('a config whose component cannot load: the gateway exits 2 before starting the server', async () => {
    const bad = await configWith([{ name: 'missing', event: 'pre_tool_use', component: path.join(root, 'nope.wasm') }]);
    const { ProcessTransport, gatewayArgv } = await import('../../helpers/mcp.js');
    const gatewayProcess = new ProcessTransport(gatewayArgv(bad, [...FILESYSTEM, root]));
    const exit = await gatewayProcess.exited;
    expect(exit.code).toBe(2);
    expect(gatewayProcess.stderr).toMatch(/basis-hooks mcp: load_failed: hook "missing"/);
    expect(gatewayProcess.stderr).not.toContain('Secure MCP Filesystem Server'); // the server never started
  });
});
