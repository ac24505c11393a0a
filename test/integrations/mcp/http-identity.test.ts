import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/guests.js';
import { connect, EVERYTHING, eventually, type Connected } from '../../helpers/mcp.js';
import { httpGateway, legacyHttpClient, ModernClient, modernHttp, stopAll } from '../../helpers/mcp-http.js';

/*
 * Who a call is made for, and what each identity may see: bearer tokens checked against a JWKS
 * (jose), the spec's 401 with resource metadata, tokens never forwarded upstream; identity from the
 * token, the request's _meta, the session's initialize, --agent-id; expose per identity; and
 * tool-definition changes in the audit stream.
 */

const RECORD = path.join(ROOT, 'test/fixtures/mcp/record-hook.mjs');
const AUDIENCE = 'https://gateway.test/mcp';
const ISSUER = 'https://issuer.test';
let scratch: string;
let jwks: string;
let privateKey: CryptoKey;
let otherKey: CryptoKey;
const open: Connected[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'basis-mcp-identity-'));
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair('ES256')).privateKey;
  jwks = path.join(scratch, 'jwks.json');
  await writeFile(jwks, JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] }));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.close().catch(() => undefined)));
  await stopAll();
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

function token(claims: Record<string, unknown>, options: { key?: CryptoKey; audience?: string; expires?: string } = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '5m')
    .sign(options.key ?? privateKey);
}

async function configWith(name: string, config: Record<string, unknown>): Promise<string> {
  const file = path.join(scratch, `${name}.json`);
  await writeFile(file, JSON.stringify({ hook_schema: 1, ...config }));
  return file;
}

function lines(file: string): Array<Record<string, unknown>> {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
}

const AUTH_FLAGS = ['--jwks', '', '--audience', AUDIENCE, '--issuer', ISSUER, '--workspace-claim', 'ws'];
const authFlags = (): string[] => AUTH_FLAGS.map((flag) => (flag === '' ? jwks : flag));

describe('bearer tokens (--jwks)', () => {
  it('no token, or one that does not verify: 401 with WWW-Authenticate naming the resource metadata, which the gateway serves', async () => {
    const config = await configWith('auth-401', { hooks: [] });
    const gateway = await httpGateway(config, { server: EVERYTHING }, authFlags());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const missing = await fetch(gateway.url, { method: 'POST', headers, body });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer resource_metadata="https://gateway.test/.well-known/oauth-protected-resource/mcp"');
    for (const bad of [await token({ sub: 'a' }, { key: otherKey }), await token({ sub: 'a' }, { audience: 'https://elsewhere.test/mcp' }), await token({ sub: 'a' }, { expires: '-1m' }), 'not-a-jwt']) {
      const response = await fetch(gateway.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${bad}` }, body });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+", error="invalid_token", error_description="the token does not verify/);
    }
    const noSub = await fetch(gateway.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${await token({ name: 'no subject' })}` }, body });
    expect(noSub.headers.get('www-authenticate')).toMatch(/has no \\?"sub\\?" claim|has no 'sub' claim/);
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', gateway.url));
    expect(await metadata.json()).toEqual({ resource: AUDIENCE, authorization_servers: [ISSUER], bearer_methods_supported: ['header'], resource_name: 'basis-hooks MCP gateway' });
  });

  it('a verified token names the agent and workspace the hooks see; it never reaches the server, whose credentials are --upstream-header\'s', async () => {
    const seen = path.join(scratch, 'token-seen.jsonl');
    const config = await configWith('auth-ok', { hooks: [{ name: 'record', event: 'pre_tool_use', command: [process.execPath, RECORD, seen] }] });
    const upstream = await modernHttp();
    const gateway = await httpGateway(config, { url: upstream.url }, [...authFlags(), '--upstream-header', 'X-Upstream-Key: ${UPSTREAM_KEY}'], { ...process.env, UPSTREAM_KEY: 'gateway-own-secret' });
    const bearer = await token({ sub: 'agent-from-token', ws: scratch });
    const client = await ModernClient.http(gateway.url, { name: 'claims-to-be-someone-else', headers: { authorization: `Bearer ${bearer}` } });
    const answer = (await client.call('tools/call', { name: 'whoami', arguments: {} })) as { content: [{ text: string }] };
    const told = JSON.parse(answer.content[0].text) as { authorization: unknown; upstreamHeader: unknown };
    expect(told.authorization).toBeNull();
    expect(told.upstreamHeader).toBe('gateway-own-secret');
    expect(lines(seen).map((r) => [r.agent_id, r.workspace])).toEqual([['agent-from-token', scratch]]);
    expect(JSON.stringify(await upstream.received())).not.toContain(bearer);
    await client.close();
  });

  it('a 2025-11-25 session belongs to the agent that opened it', async () => {
    const config = await configWith('auth-session', { hooks: [] });
    const gateway = await httpGateway(config, { server: EVERYTHING }, authFlags());
    const mine = await legacyHttpClient(gateway.url, { headers: { authorization: `Bearer ${await token({ sub: 'owner' })}` } });
    const listed = await mine.listTools();
    expect(listed.tools.length).toBeGreaterThan(0);
    const sessionId = (mine.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const stolen = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId as string, authorization: `Bearer ${await token({ sub: 'thief' })}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(stolen.status).toBe(403);
    await mine.close();
  });
});

describe('identity without tokens: _meta, then initialize, then --agent-id', () => {
  it('a 2026-07-28 request is its _meta client\'s; without client info, --agent-id\'s; a 2025-11-25 session is its initialize\'s', async () => {
    const seen = path.join(scratch, 'identity-seen.jsonl');
    const config = await configWith('identity', { hooks: [{ name: 'record', event: 'pre_tool_use', command: [process.execPath, RECORD, seen] }] });
    const gateway = await httpGateway(config, { server: EVERYTHING }, ['--agent-id', 'fallback-agent']);
    const modern = await ModernClient.http(gateway.url, { name: 'modern-named' });
    await modern.call('tools/call', { name: 'echo', arguments: { message: 'a' } });
    await modern.call('tools/call', { name: 'echo', arguments: { message: 'b' } }, { meta: { 'io.modelcontextprotocol/clientInfo': undefined } });
    const legacy = await legacyHttpClient(gateway.url);
    await legacy.callTool({ name: 'echo', arguments: { message: 'c' } });
    expect(lines(seen).map((r) => r.agent_id)).toEqual(['modern-named', 'fallback-agent', 'basis-http-client']);
    await modern.close();
    await legacy.close();
  });
});

describe('expose: what each identity may list and call', () => {
  it('tools/list is filtered per identity (private to the caller in 2026-07-28); a call to a tool not exposed is refused before any hook, and audited', async () => {
    const seen = path.join(scratch, 'expose-seen.jsonl');
    const audit = path.join(scratch, 'expose-audit.jsonl');
    const config = await configWith('expose', {
      hooks: [{ name: 'record', event: 'pre_tool_use', command: [process.execPath, RECORD, seen] }],
      expose: [
        { agents: ['team-a-*'], tools: ['echo', 'get-sum'] },
        { agents: ['*'], tools: ['echo'] },
      ],
    });
    const gateway = await httpGateway(config, { server: EVERYTHING }, ['--audit', audit]);
    const a = await ModernClient.http(gateway.url, { name: 'team-a-1' });
    const b = await ModernClient.http(gateway.url, { name: 'outsider' });
    const listed = await a.call('tools/list');
    expect((listed.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(['echo', 'get-sum']);
    expect(listed.cacheScope).toBe('private');
    expect(((await b.call('tools/list')).tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['echo']);
    expect(await a.call('tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } })).toMatchObject({ content: [{ text: 'The sum of 1 and 2 is 3.' }] });
    await expect(b.call('tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('tool "get-sum" is not exposed to agent "outsider"') });
    expect(lines(seen).map((r) => [r.agent_id, r.tool_name])).toEqual([['team-a-1', 'get-sum']]); // no hook ran for the refused call
    // The audit file is appended asynchronously: wait for the refusal before reading it.
    await eventually(() => lines(audit).some((e) => e.type === 'tool_call_refused'));
    expect(lines(audit).filter((e) => e.type === 'tool_call_refused')).toEqual([expect.objectContaining({ agent_id: 'outsider', tool_name: 'get-sum', reason: expect.stringContaining('not exposed') })]);
    await a.close();
    await b.close();
  });

  it('a tool whose definition changes between listings is reported in the audit stream (changed, removed, added)', async () => {
    const audit = path.join(scratch, 'pins-audit.jsonl');
    const config = await configWith('pins', { hooks: [] });
    const c = await connect(config, [process.execPath, path.join(ROOT, 'test/fixtures/mcp/hostile-server.mjs')], { flags: ['--audit', audit] });
    open.push(c);
    await c.client.listTools();
    expect(lines(audit)).toEqual([]);
    await c.client.callTool({ name: 'mutate', arguments: {} });
    await c.client.listTools();
    // The audit file is appended asynchronously: wait for the three events.
    await eventually(() => lines(audit).filter((e) => e.type === 'tool_definition_changed').length >= 3);
    const changes = lines(audit).filter((e) => e.type === 'tool_definition_changed');
    expect(changes.map((e) => [e.tool_name, e.change, e.fields])).toEqual([
      ['slow', 'changed', ['description']],
      ['newcomer', 'added', undefined],
      ['twice', 'removed', undefined],
    ]);
    expect(changes[0]).toMatchObject({ agent_id: 'basis-test-client', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), previous_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
