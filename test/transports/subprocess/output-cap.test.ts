import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBPROCESS_DEFAULTS, subprocessTransport } from '../../../host/transports/subprocess/index.js';
import { codeOf, eventually, groupMembers, hookArgv, isAlive, preRequest, readPids, tempDir } from './helpers.js';

const MiB = 1024 * 1024;

describe('subprocess: stdout cap', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('a hook flooding 100 MB to stdout → output_too_large, host memory stays bounded, the flooder is dead', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const file = path.join(dir, 'pids.json');
    const transport = subprocessTransport({
      command: hookArgv('flood-stdout'),
      timeout_ms: 20_000,
      env: { BASIS_TEST_PID_FILE: file, BASIS_TEST_FLOOD_BYTES: String(100 * MiB) },
    });

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const result = await transport.invoke(preRequest(), { hook: 'flood' });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(codeOf(result)).toBe('output_too_large');
    // Buffering the flood would grow the host by ~100 MB; the cap (1 MiB) plus pipe chunks is far less.
    // The bound is generous on purpose: it separates "bounded" from "buffered it all", nothing finer.
    expect(peak - before).toBeLessThan(48 * MiB);
    const { hook, pgid } = readPids(file);
    expect(await eventually(() => !isAlive(hook))).toBe(true);
    expect(await eventually(() => groupMembers(pgid).length === 0)).toBe(true);
  });

  it('an answer exactly at the cap is accepted; one byte over is output_too_large', async () => {
    const answer = '{"decision":"allow"}\n';
    const command = `cat >/dev/null; printf '%s\\n' '{"decision":"allow"}'`;
    const atCap = await subprocessTransport({ command, max_output_bytes: answer.length }).invoke(preRequest(), { hook: 'at' });
    expect(codeOf(atCap)).toBe('ok');
    const over = await subprocessTransport({ command, max_output_bytes: answer.length - 1 }).invoke(preRequest(), { hook: 'over' });
    expect(codeOf(over)).toBe('output_too_large');
  });

  it('defaults to a 1 MiB cap', () => {
    expect(SUBPROCESS_DEFAULTS.max_output_bytes).toBe(MiB);
  });
});
