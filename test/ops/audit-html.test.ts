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
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderAuditHtml } from '../../host/audit/html.js';
import { AuditSummarizer, type AuditSummary } from '../../host/audit/summary.js';
import { HookRunner, componentTransport, subprocessTransport, type AuditEvent, type PreToolUseCall } from '../../host/index.js';
import { runCli } from '../cli/cli.js';
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

/** An agent id a hostile client might send (the gateway takes it from the client's initialize). */
const HOSTILE_AGENT = '<script>document.title="pwned"</script>';
const END = Date.parse('2026-03-01T12:00:00.000Z');
const minutesBeforeEnd = (m: number): number => END - m * 60_000;

/**
 * A stream from a real chain (the WAT guard component, an sh policy that denies rm -rf and fails on
 * "boom", failing open), over three hours of the clock: agent-x before the last hour and within it,
 * agent-y and a hostile agent id within it.
 */
async function investigationStream(file: string): Promise<void> {
  const dir = path.dirname(file);
  const policy = await shHook(dir, 'policy.sh', 'input=$(cat)\ncase "$input" in\n  *rm\\ -rf*) echo \'{"decision":"deny","reason":"no rm -rf"}\' ;;\n  *boom*) exit 3 ;;\n  *) echo \'{"decision":"allow"}\' ;;\nesac');
  const guard = componentTransport({ path: policyGuest('wat', 'guard'), cache_dir: TEST_CACHE_DIR });
  await guard.load();
  const lines: string[] = [];
  const runner = new HookRunner(
    [
      { name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport: guard },
      { name: 'policy-sh', event: 'pre_tool_use', on_failure: 'allow', transport: subprocessTransport({ command: [policy] }) },
    ],
    { audit: (event: AuditEvent) => void lines.push(JSON.stringify(event)) },
  );
  const calls: Array<[number, string, string, string]> = [
    [170, 'agent-x', 'x-old', 'git push --force origin main'],
    [50, 'agent-x', 'x1', 'ls -la'],
    [45, 'agent-x', 'x2', 'git push --force origin feature'],
    [40, 'agent-y', 'y1', 'git push -f origin main'],
    [35, 'agent-x', 'x3', 'rm -rf /'],
    [30, 'agent-x', 'x4', 'echo boom'],
    [20, HOSTILE_AGENT, 'h1', 'rm -rf /home'],
    [10, 'agent-x', 'x5', 'cat README.md'],
    [1, 'agent-y', 'y2', 'ls'],
  ];
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (const [minutes, agent, id, command] of calls) {
      vi.setSystemTime(minutesBeforeEnd(minutes));
      const call: PreToolUseCall = { event: 'pre_tool_use', workspace: `/work/${agent === 'agent-y' ? 'y' : 'x'}`, agent_id: agent, tool_call_id: id, tool_name: 'shell', input: { command } };
      await runner.pre(call);
    }
  } finally {
    vi.useRealTimers();
    await runner.close();
  }
  await writeFile(file, `${lines.join('\n')}\n`);
}

/** The investigation table's rows as text: [agent, tool, hook, decision, reason, call id]. */
async function tableRows(page: Page): Promise<string[][]> {
  return page.locator('#f-rows tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')).map((c) => [c[1] ?? '', c[3] ?? '', c[5] ?? '', c[6] ?? '', c[7] ?? '', c[8] ?? '']));
}

describe('audit --html: the investigation page', () => {
  it.skipIf(!available && !REQUIRED)('answers "what did agent X try in the last hour, and what was denied" by filtering the table in chromium', async () => {
    if (browser === undefined) throw new Error(`${CHROMIUM} is required (BASIS_HOOKS_REQUIRE_TOOLCHAINS=1): apt-get install -y chromium`);
    const dir = await tempDir();
    const stream = path.join(dir, 'audit.jsonl');
    await investigationStream(stream);
    const file = path.join(dir, 'audit.html');
    const cli = await runCli(['audit', stream, '--html', file]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^\s+agent-x\s+6\s+2\s+1\s+0\s+1\s+1$/m);

    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => errors.push(`dialog: ${dialog.message()}`));
    await page.goto(`file://${file}`);
    await page.locator('#investigate').waitFor({ state: 'visible' });

    // By default: every deny, modify, replace and failure, newest first.
    expect((await tableRows(page)).map((r) => r[3])).toEqual(['deny', 'allow (failed)', 'deny', 'deny', 'modify', 'deny']);

    // Agent X, the last hour, everything it tried.
    await page.selectOption('#f-agent', { label: 'agent-x (6)' });
    await page.selectOption('#f-window', { label: 'its last hour' });
    await page.selectOption('#f-decision', 'all');
    expect(await tableRows(page)).toEqual([
      ['agent-x', 'shell', '', 'allow', '', 'x5'],
      ['agent-x', 'shell', 'policy-sh', 'allow (failed)', 'exit_nonzero', 'x4'],
      ['agent-x', 'shell', 'policy-sh', 'deny', 'no rm -rf', 'x3'],
      ['agent-x', 'shell', 'guard', 'modify', 'replaced --force with --force-with-lease', 'x2'],
      ['agent-x', 'shell', '', 'allow', '', 'x1'],
    ].map((r) => r.map((c) => expect.stringContaining(c))));
    expect(await page.locator('#f-count').textContent()).toContain('5 of 9 rows: 1 denied, 1 modified');

    // …and what was denied: one call, its reason, its hook, its id. The earlier deny is outside the hour.
    await page.selectOption('#f-decision', 'deny');
    expect(await tableRows(page)).toEqual([['agent-x', 'shell', 'policy-sh', 'deny', 'no rm -rf', 'x3']]);
    await page.selectOption('#f-window', { label: 'the whole stream' });
    expect((await tableRows(page)).map((r) => r[5])).toEqual(['x3', 'x-old']);

    // Free text: a reason, across agents.
    await page.selectOption('#f-agent', '');
    await page.fill('#f-search', 'rm -rf');
    expect((await tableRows(page)).map((r) => r[0])).toEqual([HOSTILE_AGENT, 'agent-x']);

    // The hostile agent id is text everywhere: in the table, in the filter, in the agents table.
    expect(await page.locator('#f-agent option', { hasText: HOSTILE_AGENT }).count()).toBe(1);
    expect(await page.locator('#agents td.name', { hasText: HOSTILE_AGENT }).count()).toBe(1);
    expect(await page.title()).toBe('basis-hooks audit');

    // The timeline draws denied chains; the hooks table keeps warm and cold latencies apart.
    expect(await page.locator('#timeline rect.t-denied').count()).toBeGreaterThan(0);
    expect(await page.locator('#hooks tr[data-hook="guard"] td.cold').first().getAttribute('title')).toBe('1 cold call');
    expect(requests).toEqual([`file://${file}`]);
    expect(errors).toEqual([]);
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT.replace('.png', '-investigation.png'), fullPage: true });
    await page.close();
  });
});
