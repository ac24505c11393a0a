import type { ServerCommand, UnknownMethods } from '../integrations/mcp/index.js';

/** What `basis-hooks mcp` was asked to do, its flags checked. */
export interface GatewayInvocation {
  readonly configFile: string;
  readonly workspace: string;
  readonly agentId?: string;
  readonly trail: boolean;
  /** `--audit FILE`: also append the audit stream there. */
  readonly auditFile?: string;
  /** `--otlp URL`: export traces and metrics there (the OTEL_* variables may turn export on too). */
  readonly otlp?: string;
  /** The server: a command (stdio), or a Streamable HTTP URL with the gateway's own headers. */
  readonly server?: ServerCommand;
  readonly upstream?: { readonly url: URL; readonly headers: Readonly<Record<string, string>> };
  readonly upstreamEra?: 'legacy' | 'modern';
  readonly unknownMethods?: UnknownMethods;
  readonly upstreamTimeoutMs?: number;
  readonly maxMessageBytes?: number;
  /** `--listen`: serve Streamable HTTP (else stdio). */
  readonly listen?: { readonly host: string; readonly port: number };
  readonly allowedOrigins: readonly string[];
  readonly auth?: {
    readonly jwks: string;
    readonly audience: string;
    readonly issuer?: string;
    readonly agentClaim?: string;
    readonly workspaceClaim?: string;
    readonly authorizationServers: readonly string[];
    readonly resource?: string;
  };
  readonly maxSessions?: number;
  readonly maxInFlight?: number;
  readonly sessionIdleMs?: number;
  readonly stateSecretFile?: string;
}

/** The flags as `parseArgs` gives them. */
export interface McpFlagValues {
  readonly config?: string | undefined;
  readonly workspace?: string | undefined;
  readonly 'agent-id'?: string | undefined;
  readonly trail?: boolean | undefined;
  readonly audit?: string | undefined;
  readonly otlp?: string | undefined;
  readonly 'unknown-methods'?: string | undefined;
  readonly 'upstream-timeout'?: string | undefined;
  readonly 'max-message-bytes'?: string | undefined;
  readonly listen?: string | undefined;
  readonly 'allow-origin'?: string[] | undefined;
  readonly jwks?: string | undefined;
  readonly audience?: string | undefined;
  readonly issuer?: string | undefined;
  readonly 'agent-claim'?: string | undefined;
  readonly 'workspace-claim'?: string | undefined;
  readonly 'authorization-server'?: string[] | undefined;
  readonly resource?: string | undefined;
  readonly 'max-sessions'?: string | undefined;
  readonly 'max-in-flight'?: string | undefined;
  readonly 'session-idle-timeout'?: string | undefined;
  readonly 'state-secret-file'?: string | undefined;
  readonly upstream?: string | undefined;
  readonly 'upstream-header'?: string[] | undefined;
  readonly 'upstream-era'?: string | undefined;
}

/** A flag's whole number: `undefined` when absent, `null` when not a whole number ≥ 0. */
function wholeNumber(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

/** `Name: value` with `${VAR}` read from `env`; or the problem. */
export function upstreamHeader(text: string, env: NodeJS.ProcessEnv): [string, string] | string {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return `--upstream-header ${JSON.stringify(text)} is not "Name: value"`;
  let missing: string | undefined;
  const value = text
    .slice(colon + 1)
    .trim()
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
      const found = env[variable];
      if (found === undefined) missing ??= variable;
      return found ?? '';
    });
  if (missing !== undefined) return `--upstream-header ${name}: the environment variable ${missing} is not set`;
  if (/[\r\n\0]/.test(value)) return `--upstream-header ${name}: the value holds a line break`;
  return [name.toLowerCase(), value];
}

/** Check `basis-hooks mcp`'s flags: the invocation, or the usage problem to report. */
export function parseMcpFlags(values: McpFlagValues, serverArgv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): GatewayInvocation | string {
  const { config: configFile } = values;
  if (configFile === undefined) return '--config <hooks.json> is required';
  if (values['agent-id'] === '') return '--agent-id must not be empty';
  const unknownMethods = values['unknown-methods'];
  if (unknownMethods !== undefined && unknownMethods !== 'refuse' && unknownMethods !== 'forward') return `--unknown-methods must be "refuse" or "forward", not ${JSON.stringify(unknownMethods)}`;
  const era = values['upstream-era'];
  if (era !== undefined && era !== 'legacy' && era !== 'modern' && era !== 'auto') return `--upstream-era must be "legacy", "modern" or "auto", not ${JSON.stringify(era)}`;
  const numbers: Record<string, number | undefined> = {};
  for (const [flag, positive] of [['upstream-timeout', false], ['max-message-bytes', true], ['max-sessions', true], ['max-in-flight', true], ['session-idle-timeout', true]] as const) {
    const number = wholeNumber(values[flag]);
    if (number === null || (positive && number === 0)) return `--${flag} must be a ${positive ? 'positive ' : ''}whole number, not ${JSON.stringify(values[flag])}`;
    numbers[flag] = number;
  }
  const [serverCommand, ...serverArgs] = serverArgv;
  const upstreamUrl = values.upstream;
  if (upstreamUrl !== undefined && serverCommand !== undefined) return 'give either --upstream <url> or a server command after "--", not both';
  if (upstreamUrl === undefined && (serverCommand === undefined || serverCommand === '')) {
    return 'the MCP server is required: a command after "--" (e.g. -- npx @modelcontextprotocol/server-filesystem /data) or --upstream <url>';
  }
  let upstream: GatewayInvocation['upstream'];
  if (upstreamUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(upstreamUrl);
    } catch {
      return `--upstream ${JSON.stringify(upstreamUrl)} is not a URL`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--upstream must be an http(s) URL, not ${JSON.stringify(upstreamUrl)}`;
    const headers: Record<string, string> = {};
    for (const text of values['upstream-header'] ?? []) {
      const header = upstreamHeader(text, env);
      if (typeof header === 'string') return header;
      headers[header[0]] = header[1];
    }
    upstream = { url, headers };
  } else if ((values['upstream-header'] ?? []).length > 0) {
    return '--upstream-header is for an --upstream server (a stdio server gets its environment instead)';
  }
  let listen: GatewayInvocation['listen'];
  if (values.listen !== undefined) {
    const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(values.listen);
    const port = match === null ? NaN : Number(match[2]);
    if (match === null || port > 65535) return `--listen must be [host:]port, not ${JSON.stringify(values.listen)}`;
    listen = { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
  }
  const httpOnly = ['allow-origin', 'jwks', 'audience', 'issuer', 'agent-claim', 'workspace-claim', 'authorization-server', 'resource', 'max-sessions', 'max-in-flight', 'session-idle-timeout'] as const;
  if (listen === undefined) {
    const given = httpOnly.find((flag) => values[flag] !== undefined);
    if (given !== undefined) return `--${given} is for an HTTP gateway (--listen)`;
  }
  let auth: GatewayInvocation['auth'];
  if (values.jwks !== undefined) {
    if (values.audience === undefined) return '--jwks needs --audience (the audience tokens must be issued for)';
    auth = {
      jwks: values.jwks,
      audience: values.audience,
      ...(values.issuer === undefined ? {} : { issuer: values.issuer }),
      ...(values['agent-claim'] === undefined ? {} : { agentClaim: values['agent-claim'] }),
      ...(values['workspace-claim'] === undefined ? {} : { workspaceClaim: values['workspace-claim'] }),
      authorizationServers: values['authorization-server'] ?? (values.issuer === undefined ? [] : [values.issuer]),
      ...(values.resource === undefined ? {} : { resource: values.resource }),
    };
  } else if (values.audience !== undefined || values.issuer !== undefined) {
    return '--audience and --issuer check tokens: they need --jwks';
  }
  return {
    configFile,
    workspace: values.workspace ?? cwd,
    ...(values['agent-id'] === undefined ? {} : { agentId: values['agent-id'] }),
    trail: values.trail === true,
    ...(values.audit === undefined ? {} : { auditFile: values.audit }),
    ...(values.otlp === undefined ? {} : { otlp: values.otlp }),
    ...(upstream === undefined ? { server: { command: serverCommand as string, args: serverArgs } } : { upstream }),
    ...(era === undefined || era === 'auto' ? {} : { upstreamEra: era }),
    ...(unknownMethods === undefined ? {} : { unknownMethods }),
    ...(numbers['upstream-timeout'] === undefined ? {} : { upstreamTimeoutMs: numbers['upstream-timeout'] }),
    ...(numbers['max-message-bytes'] === undefined ? {} : { maxMessageBytes: numbers['max-message-bytes'] }),
    ...(listen === undefined ? {} : { listen }),
    allowedOrigins: values['allow-origin'] ?? [],
    ...(auth === undefined ? {} : { auth }),
    ...(numbers['max-sessions'] === undefined ? {} : { maxSessions: numbers['max-sessions'] }),
    ...(numbers['max-in-flight'] === undefined ? {} : { maxInFlight: numbers['max-in-flight'] }),
    ...(numbers['session-idle-timeout'] === undefined ? {} : { sessionIdleMs: numbers['session-idle-timeout'] }),
    ...(values['state-secret-file'] === undefined ? {} : { stateSecretFile: values['state-secret-file'] }),
  };
}
