import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/index.js';
import { ConfigError } from '../../host/errors/config-error.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

async function loadError(file: string): Promise<ConfigError> {
  const error: unknown = await loadConfig(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('reads, validates and resolves a file', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'hooks.json': JSON.stringify({ hook_schema: 1, hooks: [{ name: 'c', event: 'pre_tool_use', component: 'x.wasm' }] }) });
    const config = await loadConfig(path.join(dir, 'hooks.json'));
    expect(config.hooks[0]).toMatchObject({ component: path.join(dir, 'x.wasm') });
  });

  it('a missing file is config_unreadable and names the file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'nope.json');
    const error = await loadError(file);
    expect(error.code).toBe('config_unreadable');
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.issues[0]?.message).toContain('not found');
  });

  it('invalid JSON is config_unreadable with the line:column the parser points at', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'hooks.json');
    // A missing comma: the parser stops at the `"` that opens line 3's key.
    await writeFiles(dir, { 'hooks.json': '{\n  "hook_schema": 1\n  "hooks": []\n}\n' });
    const error = await loadError(file);
    expect(error.code).toBe('config_unreadable');
    expect(error.message).toContain(file);
    expect(error.issues[0]?.message).toMatch(/^invalid JSON at 3:3: /);
  });

  it('a schema problem in a file is config_invalid and names the file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'hooks.json');
    await writeFiles(dir, { 'hooks.json': '{"hook_schema": 1, "hooks": [{"name": "a", "event": "pre_tool", "command": ["true"]}]}' });
    const error = await loadError(file);
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(file);
    expect(error.issues).toEqual([{ path: 'hooks[0].event', message: '"pre_tool" is not one of pre_tool_use, post_tool_use' }]);
  });

  it('accepts a UTF-8 byte order mark', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'hooks.json': '\uFEFF{"hook_schema": 1, "hooks": []}' });
    await expect(loadConfig(path.join(dir, 'hooks.json'))).resolves.toEqual({ hook_schema: 1, hooks: [] });
  });
});
