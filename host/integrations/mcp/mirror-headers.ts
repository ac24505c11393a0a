import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { declaredVersion } from './era.js';

/*
 * 2026-07-28's request metadata headers (basic/transports/streamable-http, "Request Metadata"):
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}` mirror fields of the body
 * so intermediaries can route without parsing it. A server MUST reject a request whose headers do not
 * match its body (400, HeaderMismatch -32020) — so a gateway that rewrites arguments must rewrite the
 * mirrored headers too. These functions compute, encode and check them.
 */

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
/** Visible ASCII, space and tab, without leading or trailing whitespace. */
const PLAIN = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

/** A header value for `value`: as is when it is plain ASCII, else `=?base64?…?=` of its UTF-8. */
export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !SENTINEL.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The value a header carries (decoding the base64 sentinel), or `undefined` when it is not valid base64. */
export function decodeHeaderValue(header: string): string | undefined {
  const match = SENTINEL.exec(header);
  if (match === null) return header;
  const encoded = match[1] as string;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** One `x-mcp-header` annotation of a tool's input schema: where its value is, and the header's name part. */
export interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `x-mcp-header` annotations of an input schema, reached through `properties` keys only; or a
 * sentence saying why the schema's annotations are invalid (the spec: a client MUST then drop the
 * tool from its list).
 */
export function paramHeaders(inputSchema: unknown): readonly ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const walk = (schema: unknown, path: readonly string[]): string | undefined => {
    if (!isObject(schema)) return undefined;
    const name = schema['x-mcp-header'];
    if (name !== undefined) {
      if (path.length === 0) return 'x-mcp-header on the schema root';
      if (typeof name !== 'string' || !TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} at ${path.join('.')} is not an HTTP token`;
      const type = schema.type;
      if (type !== 'string' && type !== 'integer' && type !== 'boolean') return `x-mcp-header at ${path.join('.')} is on a ${JSON.stringify(type)}, not a string, integer or boolean`;
      if (found.some((h) => h.name.toLowerCase() === name.toLowerCase())) return `x-mcp-header ${JSON.stringify(name)} is used twice`;
      found.push({ path, name });
    }
    const properties = schema.properties;
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const problem = walk(child, [...path, key]);
        if (problem !== undefined) return problem;
      }
    }
    // An annotation anywhere else (items, oneOf, $ref...) makes the definition invalid.
    for (const [key, child] of Object.entries(schema)) {
      if (key === 'properties' || key === 'x-mcp-header') continue;
      if (JSON.stringify(child ?? null).includes('"x-mcp-header"')) return `x-mcp-header under "${key}" at ${path.join('.') || 'the root'} (only properties chains may carry it)`;
    }
    return undefined;
  };
  const problem = walk(inputSchema, []);
  return problem ?? found;
}

/** A parameter's header text, or `undefined` when the value is absent or null (the header is then omitted). */
function paramText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** Methods whose `Mcp-Name` is `params.name` or `params.uri`. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/**
 * The metadata headers of a modern request, computed from its body (and, for `tools/call`, the
 * tool's `x-mcp-header` annotations). Header names are lower-case (HTTP compares them so).
 */
export function mirroredHeaders(request: Pick<JSONRPCRequest, 'method' | 'params'>, params: readonly ParamHeader[] = []): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': request.method };
  const version = declaredVersion(request);
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  const field = NAMED[request.method];
  const body = (request.params ?? {}) as Json;
  if (field !== undefined && typeof body[field] === 'string') headers['mcp-name'] = encodeHeaderValue(body[field]);
  if (request.method === 'tools/call') {
    for (const param of params) {
      const text = paramText(valueAt(body.arguments, param.path));
      if (text !== undefined) headers[`mcp-param-${param.name.toLowerCase()}`] = encodeHeaderValue(text);
    }
  }
  return headers;
}

/**
 * Why a modern request's headers do not match its body (the spec's server validation), or
 * `undefined` when they do. `headers` are the request's, names lower-case (Node's `IncomingHttpHeaders`).
 */
export function headerMismatch(headers: Readonly<Record<string, string | string[] | undefined>>, request: Pick<JSONRPCRequest, 'method' | 'params'>, params: readonly ParamHeader[] = []): string | undefined {
  const expected = mirroredHeaders(request, params);
  const one = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  for (const name of ['mcp-protocol-version', 'mcp-method', 'mcp-name']) {
    const want = expected[name];
    const got = one(name);
    if (want === undefined) continue;
    if (got === undefined) return `the ${name} header is missing`;
    const decoded = name === 'mcp-name' ? decodeHeaderValue(got) : got;
    const wanted = name === 'mcp-name' ? decodeHeaderValue(want) : want;
    if (decoded !== wanted) return `the ${name} header (${JSON.stringify(got)}) does not match the body (${JSON.stringify(wanted)})`;
  }
  for (const param of params) {
    const name = `mcp-param-${param.name.toLowerCase()}`;
    const want = expected[name];
    const got = one(name);
    if (want === undefined && got === undefined) continue;
    if (want === undefined) return `the ${name} header is set but the argument is absent`;
    if (got === undefined) return `the ${name} header is missing`;
    const decoded = decodeHeaderValue(got);
    const wanted = decodeHeaderValue(want) as string;
    const equal = decoded === wanted || (/^-?\d+(\.0+)?$/.test(decoded ?? '') && Number(decoded) === Number(wanted));
    if (!equal) return `the ${name} header (${JSON.stringify(got)}) does not match the body (${JSON.stringify(wanted)})`;
  }
  return undefined;
}
