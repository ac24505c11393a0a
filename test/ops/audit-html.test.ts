/**
 * The `audit --html` page in a real browser: Debian's chromium (`apt-get install chromium`, in
 * .ci/run), driven by playwright-core. The stream comes from a real chain — WebAssembly components
 * and sh hooks, a shadow, failures — and the page must show its tables and one histogram per hook,
 * load nothing, and run nothing a hook's name could smuggle in. A screenshot is kept under
 * `.cache/screenshots/` for people to look at.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderAuditHtml } from '../../host/audit/html.js';
import { AuditSummarizer, type AuditSummary } from '../../host/audit/summary.js';
import { HookRunner, componentTransport, subprocessTransport, type AuditEvent } from '../../host/index.js';
import { ROOT, TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { ensureOpsGuests, policyGuest, postCall, preCall, shHook, watBehaviour } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const REQUIRED = process.env['BASIS_HOOKS_REQUIRE_TOOLCHAINS'] === '1';
const available = existsSync(CHROMIUM);
/** A name a hostile hook author might pick: it must show as text, never become markup. */
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';
export const SCREENSHOT = path.join(ROOT, '.cache', 'screenshots', 'audit-page.png');

let browser: Browser | undefined;

async function streamFromRealChain(): Promise<AuditSummary> {
  const dir = await tempDir();
  const policy = await shHook(
    dir,
    'policy.sh',
    'input=$(cat)\ncase "$input" in\n  *rm\\ -rf*) echo \'{"decision":"deny","reason":"no rm -rf"}\' ;;\n  *boom*) exit 3 ;;\n  *) echo \'{"decision":"allow"}\' ;;\nesac',
  );
  const guard = componentTransport({ path: policyGuest('wat', 'guard'), cache_dir: TEST_CACHE_DIR });
  const redact = componentTransport({ path: policyGuest('c', 'redact'), cache_dir: TEST_CACHE_DIR });
  const hostile = componentTransport({ path: watBehaviour('allow'), cache_dir: TEST_CACHE_DIR });
  await Promise.all([guard.load(), redact.load(), hostile.load()]);
  const summarizer = new AuditSummarizer('real-chain.jsonl');
  const runner = new HookRunner(
    [
      { name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport: guard },
      { name: 'policy-sh', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: [policy] }) },
      { name: HOSTILE, event: 'pre_tool_use', mode: 'shadow', transport: hostile },
      { name: 'redact', event: 'post_tool_use', transport: redact },
    ],
    { audit: (event: AuditEvent) => summarizer.event(event) },
  );
  const commands = ['ls -la', 'git push --force origin main', 'git push -f origin feature', 'rm -rf /', 'echo boom', 'cat README.md'];
  for (let i = 0; i < 36; i++) {
    const command = commands[i % commands.length] as string;
    const tool = i % 4 === 3 ? 'mcp__github__create_issue' : 'shell';
    const outcome = await runner.pre(preCall(`c${i}`, { command }, tool), { wait_for_shadows: true });
    if (outcome.decision === 'allow') {
      await runner.post(postCall(`c${i}`, outcome.input, i % 3 === 0 ? 'key AKIAABCDEFGHIJKLMNOP' : 'ok', tool));
    }
  }
  await runner.close();
  return summarizer.summary();
}

beforeAll(async () => {
  await ensureOpsGuests();
  if (!available && !REQUIRED) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe('audit --html', () => {
  it('escapes every text from the stream (hook names are third-party input)', async () => {
    const summary = await streamFromRealChain();
    const html = renderAuditHtml(summary);
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it.skipIf(!available && !REQUIRED)('renders in headless chromium: both tables, one histogram per hook, nothing loaded, nothing run', async () => {
    if (browser === undefined) throw new Error(`${CHROMIUM} is required (BASIS_HOOKS_REQUIRE_TOOLCHAINS=1): apt-get install -y chromium`);
    const summary = await streamFromRealChain();
    const dir = await tempDir();
    const file = path.join(dir, 'audit.html');
    await writeFile(file, renderAuditHtml(summary));

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`file://${file}`);

    // The tables: one row per hook, one per tool, with the figures of the summary.
    const hookRows = page.locator('#hooks tbody tr');
    expect(await hookRows.count()).toBe(4);
    const names = await page.locator('#hooks tbody td.name').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
    expect(names.sort()).toEqual([HOSTILE, 'guard', 'policy-sh', 'redact'].sort());
    const policyRow = await page.locator('#hooks tbody tr[data-hook="policy-sh"] td').allTextContents();
    const policy = summary.hooks.find((h) => h.hook === 'policy-sh');
    expect(policyRow[1]).toBe(String(policy?.calls));
    expect(policyRow[6]).toContain('exit_nonzero');
    expect(await page.locator('#tools tbody tr').count()).toBe(2);
    expect(await page.locator('#tools tbody tr[data-tool="shell"] td').allTextContents()).toEqual([
      'shell',
      ...[summary.tools.find((t) => t.tool === 'shell')].flatMap((t) => [t?.chains, t?.denied, t?.modified, t?.replaced].map(String)),
    ]);

    // One histogram per hook, with visible bars, and the p50 marker.
    const histograms = page.locator('figure.hist svg.histogram');
    expect(await histograms.count()).toBe(4);
    for (let i = 0; i < 4; i++) {
      const svg = histograms.nth(i);
      const box = await svg.boundingBox();
      expect(box?.width).toBeGreaterThan(100);
      const heights = await svg.locator('rect.bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('height'))));
      expect(heights.some((h) => h > 0)).toBe(true);
      expect(await svg.locator('line.p50').count()).toBe(1);
    }

    // Nothing but the page itself was requested; the hostile name stayed text.
    expect(requests).toEqual([`file://${file}`]);
    expect(await page.title()).toBe('basis-hooks audit');
    expect(await page.locator('img').count()).toBe(0);
    expect(errors).toEqual([]);

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.close();
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
