import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../host/index.js';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { openBeneath, openDirectoryBeneath } from '../../host/engine/wasi/open-beneath.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

/*
 * Issue 20: a granted file was checked (`statSync`) and then opened, so a writer of the granted
 * directory could swap in a FIFO (the open blocks the thread) or a symlink out of the grant in between.
 * Now the path is opened first (no symlink followed in its last component, never blocking) and the
 * descriptor is checked. The guest is file-reader.wat: "r<path>" reads, "l<path>" lists, "n<path>"
 * counts; a WASI error comes back as "E<error-code>".
 */

/** wasi:filesystem error codes the tests expect (their numbers in the WIT enum). */
const E = { isDirectory: 'E14', loop: 'E15', noEntry: 'E20', notPermitted: 'E31' } as const;

const INSIDE = 'inside-content';
const SECRET = 'SECRET-outside-the-grant';

function answer(result: InvokeResult): string {
  if (!result.ok) throw new Error(`unexpected failure: ${JSON.stringify(result)}`);
  return result.response.decision === 'deny' ? result.response.reason : result.response.decision;
}

let root: string;
let grant: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'basis-grants-'));
  grant = join(root, 'grant');
  mkdirSync(join(grant, 'sub'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'outside', SECRET), '');
  writeFileSync(join(grant, 'file.txt'), INSIDE);
  for (let i = 0; i < 5; i++) writeFileSync(join(grant, 'sub', `e${i}`), '');
  symlinkSync(join(root, 'outside', 'secret.txt'), join(grant, 'out-link'));
  symlinkSync('file.txt', join(grant, 'in-link'));
  execFileSync('mkfifo', [join(grant, 'fifo')]);
  // What the swapper moves in and out of "target" / "dtarget" (same filesystem: rename is atomic).
  writeFileSync(join(grant, 'a'), INSIDE);
  execFileSync('mkfifo', [join(grant, 'b')]);
  symlinkSync(join(root, 'outside', 'secret.txt'), join(grant, 'c'));
  mkdirSync(join(grant, 'da'));
  writeFileSync(join(grant, 'da', 'inside-name'), '');
  symlinkSync(join(root, 'outside'), join(grant, 'db'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/**
 * A real process that keeps swapping `target` between a regular file, a FIFO and a symlink out of the
 * grant, and `dtarget` between a directory and a symlink to a directory outside, with rename(2).
 */
function startSwapper(): ChildProcess {
  const script = `
    const { renameSync } = require('node:fs');
    const { join } = require('node:path');
    const dir = ${JSON.stringify(grant)};
    const swap = (from, to) => { try { renameSync(join(dir, from), join(dir, to)); } catch {} };
    for (;;) for (const name of ['a', 'b', 'c']) { swap(name, 'target'); swap('target', name); swap('d' + name, 'dtarget'); swap('dtarget', 'd' + name); }
  `;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

describe('openBeneath: whatever a path names at the moment it is opened, only a regular file or directory inside the grant is kept', () => {
  const openFds = (): number => readdirSync('/proc/self/fd').length;
  const code = (f: () => unknown): unknown => {
    try {
      f();
    } catch (error) {
      return (error as { code?: unknown }).code;
    }
    return 'opened';
  };

  it('a regular file inside: opened, its real path reported', () => {
    const opened = openBeneath(grant, join(grant, 'file.txt'));
    try {
      expect(opened.stats.isFile()).toBe(true);
      expect(opened.path).toBe(join(grant, 'file.txt'));
    } finally {
      closeSync(opened.fd);
    }
  });

  it('a symlink in the last component (swapped in after the path was resolved) is never followed, inside or out', () => {
    expect(code(() => openBeneath(grant, join(grant, 'out-link')))).toBe('ELOOP');
    expect(code(() => openBeneath(grant, join(grant, 'in-link')))).toBe('ELOOP');
  });

  it('a FIFO is opened without blocking and refused; so is a path through a directory symlinked out', () => {
    expect(code(() => openBeneath(grant, join(grant, 'fifo')))).toBe('EPERM');
    expect(code(() => openBeneath(grant, join(grant, 'db', 'secret.txt')))).toBe('EPERM');
    expect(code(() => openDirectoryBeneath(grant, join(grant, 'db')))).toBe('ELOOP');
  });

  it('a directory is listed through the descriptor that was checked; a file is not a directory', () => {
    const dir = openDirectoryBeneath(grant, join(grant, 'sub'));
    const names: string[] = [];
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) names.push(entry.name);
    dir.closeSync();
    expect(names.sort()).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    expect(code(() => openDirectoryBeneath(grant, join(grant, 'file.txt')))).toBe('ENOTDIR');
  });

  it('refusals leave no descriptor open', () => {
    const before = openFds();
    for (let i = 0; i < 50; i++) {
      code(() => openBeneath(grant, join(grant, 'fifo')));
      code(() => openBeneath(grant, join(grant, 'db', 'secret.txt')));
      code(() => openDirectoryBeneath(grant, join(grant, 'file.txt')));
    }
    expect(openFds()).toBeLessThanOrEqual(before);
  });
});

for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: a granted directory is read through opened, checked descriptors`, () => {
    let t: ComponentTransport;
    const read = async (tool: string): Promise<string> => answer(await t.invoke(preRequest({}, tool), CONTEXT));

    beforeAll(async () => {
      t = componentTransport({ path: await hostileGuest('file-reader'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1, grants: { read_only_dirs: { '/data': grant } } });
      await t.load();
    });
    afterAll(async () => {
      await t.close();
    });

    it('reads a file, and follows a symlink that stays inside', async () => {
      expect(await read('rfile.txt')).toBe(`D:${INSIDE}`);
      expect(await read('rin-link')).toBe(`D:${INSIDE}`);
    });

    it('refuses a FIFO at once (opened without blocking, then refused by type), and a symlink or a path out of the grant', async () => {
      expect(await read('rfifo')).toBe(E.notPermitted);
      expect(await read('rout-link')).toBe(E.notPermitted);
      expect(await read('r../outside/secret.txt')).toBe(E.notPermitted);
      expect(await read('rsub')).toBe(E.isDirectory);
      expect(await read('rnothing')).toBe(E.noEntry);
    });

    it('lists a directory entry by entry', async () => {
      expect(await read('lsub')).toMatch(/^L:(e\d,){3}$/);
      expect(await read('nsub')).toBe('N5');
    });

    it('a writer swapping a path between a file, a FIFO and a symlink out never makes the host block or read outside', async () => {
      const swapper = startSwapper();
      try {
        const seen = new Set<string>();
        for (let i = 0; i < 300; i++) {
          const file = await read('rtarget');
          const listing = await read('ldtarget');
          expect(file).not.toContain(SECRET);
          expect(listing).not.toContain(SECRET);
          seen.add(file.startsWith('D:') ? 'file' : file);
          seen.add(listing.startsWith('L:') ? 'listing' : listing);
        }
        // Whatever the swapper left there at each moment, every answer was one of these.
        for (const outcome of seen) expect(['file', 'listing', E.noEntry, E.notPermitted, E.loop]).toContain(outcome);
      } finally {
        swapper.kill('SIGKILL');
      }
    }, 60_000);
  });
}
