import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DIR_ENV, parseConfig } from '../../host/config/index.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

describe('paths resolve against the config file, not the working directory', () => {
  it('resolves component paths and read-only dir host paths', async () => {
    const dir = await tempDir();
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          {
            name: 'c',
            event: 'post_tool_use',
            component: 'hooks/redact.wasm',
            grants: { read_only_dirs: { '/data': './data', '/abs': '/srv/shared' } },
          },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    expect(config.hooks[0]).toMatchObject({
      component: path.join(dir, 'hooks/redact.wasm'),
      grants: { read_only_dirs: { '/data': path.join(dir, 'data'), '/abs': '/srv/shared' } },
    });
  });

  it('rewrites relative argv entries with a slash when the file exists next to the config', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'hooks/guard.mjs': '', 'run.sh': '' });
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 'a', event: 'pre_tool_use', command: ['node', 'hooks/guard.mjs', 'origin/main', 'hooks/missing.mjs', '/usr/bin/env'] },
          { name: 'b', event: 'pre_tool_use', command: ['./run.sh', 'run.sh'] },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    expect(config.hooks[0]).toMatchObject({
      // Bare names stay on PATH; a slash-containing argument that is not a file there is left alone.
      command: ['node', path.join(dir, 'hooks/guard.mjs'), 'origin/main', 'hooks/missing.mjs', '/usr/bin/env'],
    });
    expect(config.hooks[1]).toMatchObject({ command: [path.join(dir, 'run.sh'), 'run.sh'] });
  });

  it('never rewrites the sh -c string form, and gives every command hook the config dir', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'hooks/x.sh': '' });
    const config = parseConfig(
      {
        hook_schema: 1,
        hooks: [
          { name: 's', event: 'pre_tool_use', command: 'sh hooks/x.sh', env: { MODE: 'strict' } },
          { name: 'a', event: 'pre_tool_use', command: ['sh', 'hooks/x.sh'] },
          { name: 'o', event: 'pre_tool_use', command: ['true'], env: { [CONFIG_DIR_ENV]: '/elsewhere' } },
        ],
      },
      path.join(dir, 'hooks.json'),
    );
    expect(config.hooks[0]).toMatchObject({ command: 'sh hooks/x.sh', env: { MODE: 'strict', [CONFIG_DIR_ENV]: dir } });
    expect(config.hooks[1]).toMatchObject({ env: { [CONFIG_DIR_ENV]: dir } });
    // An explicit entry wins.
    expect(config.hooks[2]).toMatchObject({ env: { [CONFIG_DIR_ENV]: '/elsewhere' } });
  });

  it('resolves a relative config file name against the working directory first', () => {
    const config = parseConfig({ hook_schema: 1, hooks: [{ name: 'c', event: 'pre_tool_use', component: 'x.wasm' }] }, 'conf/hooks.json');
    expect(config.hooks[0]).toMatchObject({ component: path.resolve('conf/x.wasm') });
  });
});
