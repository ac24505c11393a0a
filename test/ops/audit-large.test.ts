/**
 * `basis-hooks audit FILE --html` on a 100 MB stream, with the CLI's heap capped well below what
 * holding the stream would take (100 MB of text is 200 MB as a JavaScript string): the page is written
 * while the stream is read. The page carries every row the stream calls for, its figures agree with
 * `audit --json`, and it opens in chromium with the table filled.
 */
import { existsSync, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AUDIT_SCHEMA_VERSION } from '../../host/index.js';
import { CLI } from '../cli/cli.js';
import { tempDir } from '../helpers/temp.js';
import { runWith, type Ran } from '../helpers/run.js';

const CHROMIUM = '/usr/bin/chromium';
const REQUIRED = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1';
const TARGET_BYTES = 100 * 1024 * 1024;
/** The CLI's heap cap: enough for the summary's latencies and the string table, far from the stream. */
const HEAP_MB = 160;

/** Write a realistic stream of about TARGET_BYTES: 40 agents, 25 tools, two hooks, 1 in 12 calls denied, 1 in 40 failing. */
async function writeStream(file: string): Promise<{ chains: number; notable: number; clean: number }> {
  const out = createWriteStream(file);
  let bytes = 0;
  let chains = 0;
  let notable = 0;
  let clean = 0;
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  const base = { audit_schema: AUDIT_SCHEMA_VERSION, event: 'pre_tool_use' };
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const time = new Date(start + i * 250).toISOString();
    const common = { ...base, time, workspace: `/srv/team-${i % 7}/repo`, agent_id: `agent-${i % 40}`, tool_call_id: `call-${i}`, tool_name: `tool_${i % 25}` };
    const denied = i % 12 === 0;
    const failed = !denied && i % 40 === 1;
    const lines = [
      { ...common, type: 'chain_started', hooks: ['guard', 'policy'], input: undefined },
      { ...common, type: 'hook_decided', hook: 'guard', decision: denied ? 'deny' : 'allow', ...(denied ? { reason: `force-push to a protected branch (main/master) is not allowed [${i % 3}]` } : {}), ms: 0.02 + (i % 100) / 1000, shadow: false, ...(i < 2 ? { cold: true } : {}) },
      ...(denied ? [] : [{ ...common, type: 'hook_decided', hook: 'policy', decision: 'allow', ms: 3 + (i % 50) / 10, shadow: false, ...(failed ? { failure: { code: 'timeout', message: 'the hook did not answer within 500 ms' }, policy: 'allow' } : {}) }]),
      { ...common, type: 'chain_decided', decision: denied ? 'deny' : 'allow', ...(denied ? { reason: 'force-push to a protected branch (main/master) is not allowed' } : { modified: false }), ms: 3.5 },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
    chains += 1;
    if (denied || failed) notable += 1;
    else clean += 1;
  }
  out.end();
  await once(out, 'finish');
  return { chains, notable, clean };
}

function run(args: readonly string[]): Promise<Ran> {
  return runWith(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args]);
}

describe('audit --html on a 100 MB stream', () => {
  it('writes the page while reading, under a heap far smaller than the stream; every row is there; chromium shows it', async () => {
    const dir = await tempDir();
    const stream = path.join(dir, 'audit.jsonl');
    const counts = await writeStream(stream);
    expect((await stat(stream)).size).toBeGreaterThanOrEqual(TARGET_BYTES);
    const page = path.join(dir, 'audit.html');
    const result = await run(['audit', stream, '--html', page]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${counts.chains} chains`);

    const html = await readFile(page, 'utf8');
    // Every deny and failure, and every clean call, is a row.
    const rows = [...html.matchAll(/<script type="application\/json" class="audit-rows">(.*?)<\/script>/g)].reduce((n, m) => n + (JSON.parse(m[1] as string) as unknown[]).length, 0);
    expect(rows).toBe(counts.notable + counts.clean);
    const json = JSON.parse((await run(['audit', stream, '--json'])).stdout) as { chains: number; agents: Array<{ agent: string; chains: number }> };
    expect(json.chains).toBe(counts.chains);
    expect(json.agents).toHaveLength(40);

    if (!existsSync(CHROMIUM) && !REQUIRED) return;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    try {
      const tab = await browser.newPage();
      await tab.goto(`file://${page}`, { timeout: 120_000 });
      await tab.locator('#investigate').waitFor({ state: 'visible', timeout: 120_000 });
      expect(await tab.locator('#f-count').textContent()).toContain(`${counts.notable} of ${rows} rows`);
      expect(await tab.locator('#f-rows tr').count()).toBe(200);
      await tab.selectOption('#f-agent', { label: `agent-0 (${Math.ceil(counts.chains / 40)})` });
      await tab.selectOption('#f-decision', 'deny');
      const shown = await tab.locator('#f-rows tr td:nth-child(2)').allTextContents();
      expect(shown.length).toBeGreaterThan(0);
      expect(new Set(shown)).toEqual(new Set(['agent-0']));
    } finally {
      await browser.close();
    }
  }, 600_000);
});
