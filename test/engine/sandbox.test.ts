import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentTransport } from '../../host/transports/component/index.js';
import { TEST_CACHE_DIR, ensureWatGuestsBuilt, watGuest } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

/** wasi:filesystem error-code indices the probe reports (the enum's order in WASI 0.2). */
const NO_ENTRY = 20;
const NOT_PERMITTED = 31;
const READ_ONLY = 33;

const SECRET_NAME = 'BASIS_HOOKS_TEST_SECRET';
const SECRET_VALUE = 'sk-live-do-not-leak-4f9a';

interface ProbeReport {
  env: Array<[string, string]>;
  preopens: string[];
  file?: string;
  file_error?: number;
  escape_error?: number;
  absolute_error?: number;
  write_error?: number;
}

const transports: ComponentTransport[] = [];

async function probe(options: Parameters<typeof componentTransport>[0]['grants'] = undefined): Promise<ProbeReport> {
  const transport = componentTransport({ path: watGuest('wasi-probe'), cache_dir: TEST_CACHE_DIR, ...(options === undefined ? {} : { grants: options }) });
  transports.push(transport);
  const result = await transport.invoke(preRequest(), CONTEXT);
  if (!result.ok) throw new Error(`probe failed: ${result.failure.code}: ${result.failure.message}`);
  expect(result.response.decision).toBe('modify');
  if (result.response.decision !== 'modify') throw new Error('unreachable');
  return result.response.input as unknown as ProbeReport;
}

describe('component sandbox: deny by default', () => {
  let dir: string;
  let outside: string;
  beforeAll(async () => {
    await ensureWatGuestsBuilt();
    process.env[SECRET_NAME] = SECRET_VALUE;
    process.env.BASIS_HOOKS_TEST_ALLOWED = 'passed-through';
    dir = await mkdtemp(join(tmpdir(), 'basis-sandbox-'));
    outside = await mkdtemp(join(tmpdir(), 'basis-outside-'));
    await mkdir(join(dir, 'data'));
    await writeFile(join(dir, 'data', 'probe.txt'), 'hello from a granted directory');
    await writeFile(join(outside, 'secret.txt'), SECRET_VALUE);
    await mkdir(join(dir, 'linked'));
    // A symlink inside the grant that points out of it must not be followed out.
    await symlink(join(outside, 'secret.txt'), join(dir, 'linked', 'probe.txt'));
    await mkdir(join(dir, 'empty'));
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    delete process.env.BASIS_HOOKS_TEST_ALLOWED;
    await Promise.all(transports.map((t) => t.close()));
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('without grants the guest sees no environment (not even a secret in the host env) and no directories', async () => {
    expect(process.env[SECRET_NAME]).toBe(SECRET_VALUE);
    const report = await probe();
    expect(report).toEqual({ env: [], preopens: [] });
    expect(JSON.stringify(report)).not.toContain(SECRET_VALUE);
  });

  it('with grants the guest sees exactly the granted variables and directory', async () => {
    const report = await probe({
      env: { HOOK_MODE: 'strict' },
      env_allow: ['BASIS_HOOKS_TEST_ALLOWED', 'BASIS_HOOKS_TEST_UNSET_VARIABLE'],
      read_only_dirs: { '/data': join(dir, 'data') },
    });
    expect(report.env.sort()).toEqual([
      ['BASIS_HOOKS_TEST_ALLOWED', 'passed-through'],
      ['HOOK_MODE', 'strict'],
    ]);
    expect(JSON.stringify(report)).not.toContain(SECRET_VALUE);
    expect(report.preopens).toEqual(['/data']);
    expect(report.file).toBe('hello from a granted directory');
  });

  it('a read-only directory refuses escapes, absolute paths (/etc/passwd) and writes', async () => {
    const report = await probe({ read_only_dirs: { '/data': join(dir, 'data') } });
    expect(report.escape_error).toBe(NOT_PERMITTED);
    expect(report.absolute_error).toBe(NOT_PERMITTED);
    expect(report.write_error).toBe(READ_ONLY);
  });

  it('a symlink inside a granted directory that points outside it is not followed', async () => {
    const report = await probe({ read_only_dirs: { '/linked': join(dir, 'linked') } });
    expect(report.file).toBeUndefined();
    expect(report.file_error).toBe(NOT_PERMITTED);
  });

  it('a missing file in a granted directory is no-entry', async () => {
    const report = await probe({ read_only_dirs: { '/empty': join(dir, 'empty') } });
    expect(report.file_error).toBe(NO_ENTRY);
  });

  it('a grant of a directory that does not exist fails to load', async () => {
    const transport = componentTransport({ path: watGuest('wasi-probe'), cache_dir: TEST_CACHE_DIR, grants: { read_only_dirs: { '/data': join(dir, 'nope') } } });
    transports.push(transport);
    await expect(transport.load()).rejects.toMatchObject({ name: 'HookError', code: 'load_failed' });
  });
});
