import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_SCHEMA_VERSION,
  AuditEvent,
  ConfigError,
  HookRunner,
  componentTransport,
  createRunner,
  parseConfig,
  type AuditSinkFailure,
  type HookDefinition,
  type RunnerOptions,
} from '../../host/index.js';
import { openAuditFile } from '../../host/audit/file-sink.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { tempDir } from '../helpers/temp.js';
import { ensureOpsGuests, policyGuest, postCall, preCall } from './helpers.js';

const runners: HookRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function runner(hooks: HookDefinition[], options: RunnerOptions): HookRunner {
  const r = new HookRunner(hooks, options);
  runners.push(r);
  return r;
}

async function policyHooks(): Promise<HookDefinition[]> {
  const guard = componentTransport({ path: policyGuest('wat', 'guard'), cache_dir: TEST_CACHE_DIR });
  const redact = componentTransport({ path: policyGuest('c', 'redact'), cache_dir: TEST_CACHE_DIR });
  await Promise.all([guard.load(), redact.load()]);
  return [
    { name: 'guard', event: 'pre_tool_use', tools: ['shell'], transport: guard },
    { name: 'redact', event: 'post_tool_use', transport: redact },
  ];
}

const SECRET = 'AWS_SECRET_ACCESS_KEY=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN';

beforeAll(ensureOpsGuests, 300_000);

describe('audit stream', () => {
  it('emits chain_started, hook_decided, chain_decided — versioned, named like the request, valid by the schema', async () => {
    const events: unknown[] = [];
    const r = runner(await policyHooks(), { audit: (e) => events.push(e), budget_ms: { pre_tool_use: 5000 } });
    await r.pre(preCall('c1', { command: 'git push --force origin main' }));
    await r.post(postCall('c1', { command: 'env' }, SECRET));
    const parsed = events.map((e) => AuditEvent.parse(e));
    expect(parsed.map((e) => [e.type, e.event])).toEqual([
      ['chain_started', 'pre_tool_use'],
      ['hook_decided', 'pre_tool_use'],
      ['chain_decided', 'pre_tool_use'],
      ['chain_started', 'post_tool_use'],
      ['hook_decided', 'post_tool_use'],
      ['chain_decided', 'post_tool_use'],
    ]);
    for (const e of parsed) {
      expect(e).toMatchObject({ audit_schema: AUDIT_SCHEMA_VERSION, workspace: '/repo', agent_id: 'agent-1', tool_call_id: 'c1', tool_name: 'shell' });
      expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    }
    expect(parsed[0]).toMatchObject({ hooks: ['guard'], budget_ms: 5000 });
    expect(parsed[1]).toMatchObject({ hook: 'guard', decision: 'deny', reason: 'force-push to a protected branch (main/master) is not allowed', shadow: false });
    expect(parsed[2]).toMatchObject({ decision: 'deny', reason: 'force-push to a protected branch (main/master) is not allowed' });
    expect(parsed[4]).toMatchObject({ hook: 'redact', decision: 'replace', reason: 'redacted 1 secret(s)', shadow: false });
    expect(parsed[5]).toMatchObject({ decision: 'allow', replaced: true });
  });

  it('copies no input or output unless audit_payloads is set (they can hold secrets)', async () => {
    const quiet: unknown[] = [];
    const loud: unknown[] = [];
    const hooks = await policyHooks();
    await runner(hooks, { audit: (e) => quiet.push(e) }).post(postCall('c1', { command: 'env' }, SECRET));
    await runner(hooks, { audit: (e) => loud.push(e), audit_payloads: true }).post(postCall('c1', { command: 'env' }, SECRET));
    expect(JSON.stringify(quiet)).not.toContain('abcdefghijklmnop');
    for (const e of quiet) expect(e).not.toHaveProperty('output');
    const [started, decided, done] = loud.map((e) => AuditEvent.parse(e));
    expect(started).toMatchObject({ input: { command: 'env' }, output: SECRET, is_error: false });
    expect(decided).toMatchObject({ output: 'AWS_SECRET_ACCESS_KEY=[REDACTED]' });
    expect(done).toMatchObject({ output: 'AWS_SECRET_ACCESS_KEY=[REDACTED]', is_error: false });
  });

  it('a sink that throws or rejects never changes a decision; each failure is told, with a running count', async () => {
    const failures: AuditSinkFailure[] = [];
    const delivered: unknown[] = [];
    const r = runner(await policyHooks(), {
      audit: [
        () => {
          throw new Error('disk on fire');
        },
        () => Promise.reject(new Error('remote sink down')),
        (e) => delivered.push(e),
      ],
      on_audit_error: (f) => failures.push(f),
    });
    const outcome = await r.pre(preCall('c1', { command: 'git push --force origin feature' }));
    expect(outcome).toMatchObject({ decision: 'allow', modified: true, input: { command: 'git push --force-with-lease origin feature' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toHaveLength(3);
    expect(failures.filter((f) => f.sink === 0).map((f) => f.count)).toEqual([1, 2, 3]);
    expect(failures.filter((f) => f.sink === 1).map((f) => f.count)).toEqual([1, 2, 3]);
  });

  it('by default a failing sink is reported once on stderr (a process warning), not once per event', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const r = runner(await policyHooks(), {
        audit: () => {
          throw new Error('sink broken');
        },
      });
      for (let i = 0; i < 5; i++) await r.pre(preCall(`c${i}`, { command: 'ls' }));
      await r.close();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'BASIS_HOOKS_AUDIT');
    // One when it first failed, one at close with the total.
    expect(ours).toHaveLength(2);
    expect(ours[1]?.message).toContain('15');
  });

  it('a file sink appends JSON lines and is flushed by close()', async () => {
    const dir = await tempDir();
    const file = `${dir}/audit.jsonl`;
    const sink = await openAuditFile(file);
    const r = new HookRunner(await policyHooks(), { audit: sink });
    for (let i = 0; i < 20; i++) await r.pre(preCall(`c${i}`, { command: 'ls' }));
    await r.close();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(60);
    for (const line of lines) AuditEvent.parse(JSON.parse(line));
    expect(await sink.close()).toEqual({ file, written: 60, dropped: 0 });
  });

  it('a file sink that cannot write (ENOSPC on /dev/full) is reported once and counted; the chain is unaffected', async () => {
    if (!existsSync('/dev/full')) return;
    const errors: Error[] = [];
    const sink = await openAuditFile('/dev/full', { onError: (e) => errors.push(e) });
    const r = new HookRunner(await policyHooks(), { audit: sink });
    const outcome = await r.pre(preCall('c1', { command: 'git push --force origin main' }));
    expect(outcome.decision).toBe('deny');
    await r.pre(preCall('c2', { command: 'ls' }));
    await r.close();
    const stats = await sink.close();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(stats.written).toBe(0);
    expect(stats.dropped).toBe(6);
  });

  it('a file sink bounds what waits to be written: past the cap events are dropped and counted, not held', async () => {
    const dir = await tempDir();
    const errors: Error[] = [];
    const sink = await openAuditFile(`${dir}/audit.jsonl`, { maxBufferedBytes: 600, onError: (e) => errors.push(e) });
    // In-thread component hooks: ten chains run to their end within microtasks, while the first
    // batch's write is still in the thread pool — so what waits is deterministic.
    const r = new HookRunner(await policyHooks(), { audit: sink });
    await Promise.all(Array.from({ length: 10 }, (_, i) => r.pre(preCall(`c${i}`, { command: 'ls' }))));
    await r.close();
    const stats = await sink.close();
    expect(errors).toHaveLength(1);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.written).toBeGreaterThan(0);
    expect(stats.written + stats.dropped).toBe(30);
  });

  it('the config audit file is opened before any hook loads: an unwritable one is a ConfigError at "audit"', async () => {
    const dir = await tempDir();
    const config = parseConfig({ hook_schema: 1, audit: 'no/such/dir/audit.jsonl', hooks: [] }, `${dir}/hooks.json`);
    expect(config.audit).toBe(`${dir}/no/such/dir/audit.jsonl`);
    let error: unknown;
    try {
      await createRunner(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues[0]?.path).toBe('audit');
  });

  it('the config audit file gets the runner\'s events, with payloads when the config asks', async () => {
    const dir = await tempDir();
    const config = parseConfig(
      { hook_schema: 1, audit: 'audit.jsonl', audit_payloads: true, hooks: [{ name: 'redact', event: 'post_tool_use', component: policyGuest('c', 'redact') }] },
      `${dir}/hooks.json`,
    );
    const r = await createRunner(config, { cache_dir: TEST_CACHE_DIR });
    await r.post(postCall('c1', { command: 'env' }, SECRET));
    await r.close();
    const events = (await readFile(`${dir}/audit.jsonl`, 'utf8')).trimEnd().split('\n').map((l) => AuditEvent.parse(JSON.parse(l)));
    expect(events.map((e) => e.type)).toEqual(['chain_started', 'hook_decided', 'chain_decided']);
    expect(events[2]).toMatchObject({ output: 'AWS_SECRET_ACCESS_KEY=[REDACTED]', replaced: true });
  });
});
