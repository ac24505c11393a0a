import { describe, expect, it } from 'vitest';
import { parseMcpFlags, upstreamHeader } from '../../host/cli/mcp-flags.js';

/* `basis-hooks mcp`'s flags: each misuse named, before anything starts. */

const base = { config: 'hooks.json' };
const parse = (values: Record<string, unknown>, server: string[] = ['node', 'server.js'], env: NodeJS.ProcessEnv = {}): ReturnType<typeof parseMcpFlags> => parseMcpFlags({ ...base, ...values }, server, env, '/cwd');

describe('basis-hooks mcp flags', () => {
  it('a stdio server, or an HTTP upstream with its own headers (${VAR} from the environment), not both', () => {
    expect(parse({})).toMatchObject({ server: { command: 'node', args: ['server.js'] }, workspace: '/cwd' });
    expect(parse({ upstream: 'https://tools.example/mcp', 'upstream-header': ['Authorization: Bearer ${T}'] }, [], { T: 'secret' })).toMatchObject({ upstream: { headers: { authorization: 'Bearer secret' } } });
    expect(parse({ upstream: 'https://tools.example/mcp' })).toMatch(/either --upstream <url> or a server command/);
    expect(parse({}, [])).toMatch(/the MCP server is required/);
    expect(parse({ upstream: 'ftp://x' }, [])).toMatch(/must be an http\(s\) URL/);
    expect(parse({ 'upstream-header': ['X: y'] })).toMatch(/is for an --upstream server/);
  });

  it('--upstream-header: "Name: value", a variable that is set, no line break', () => {
    expect(upstreamHeader('X-Key: ${K}', { K: 'v' })).toEqual(['x-key', 'v']);
    expect(upstreamHeader('X-Key: ${MISSING}', {})).toMatch(/MISSING is not set/);
    expect(upstreamHeader('no colon', {})).toMatch(/is not "Name: value"/);
    expect(upstreamHeader('X: ${K}', { K: 'a\r\nInjected: 1' })).toMatch(/line break/);
  });

  it('--listen [host:]port; the HTTP-only flags need it; --jwks needs --audience', () => {
    expect(parse({ listen: '8080' })).toMatchObject({ listen: { host: '127.0.0.1', port: 8080 } });
    expect(parse({ listen: '0.0.0.0:8080' })).toMatchObject({ listen: { host: '0.0.0.0', port: 8080 } });
    expect(parse({ listen: '[::1]:8080' })).toMatchObject({ listen: { host: '::1', port: 8080 } });
    expect(parse({ listen: 'localhost' })).toMatch(/--listen must be \[host:\]port/);
    expect(parse({ jwks: 'keys.json' })).toMatch(/--jwks is for an HTTP gateway/);
    expect(parse({ listen: '8080', jwks: 'keys.json' })).toMatch(/--jwks needs --audience/);
    expect(parse({ listen: '8080', jwks: 'keys.json', audience: 'https://gw/mcp', issuer: 'https://iss' })).toMatchObject({ auth: { authorizationServers: ['https://iss'] } });
    expect(parse({ listen: '8080', audience: 'x' })).toMatch(/need --jwks/);
  });

  it('numbers and enumerations are checked', () => {
    expect(parse({ 'upstream-timeout': '0' })).toMatchObject({ upstreamTimeoutMs: 0 });
    expect(parse({ 'max-message-bytes': '0' })).toMatch(/--max-message-bytes must be a positive whole number/);
    expect(parse({ listen: '1', 'max-in-flight': '-3' })).toMatch(/--max-in-flight/);
    expect(parse({ 'unknown-methods': 'maybe' })).toMatch(/--unknown-methods must be/);
    expect(parse({ 'upstream-era': 'old' })).toMatch(/--upstream-era must be/);
    expect(parse({ 'upstream-era': 'auto' })).not.toHaveProperty('upstreamEra');
  });
});
