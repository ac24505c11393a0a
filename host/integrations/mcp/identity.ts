import { readFile } from 'node:fs/promises';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { importOptional, isPackageMissingError } from '../../errors/package-missing-error.js';
import { metaClientName } from './era.js';
import type { Identity } from './tool-hooks.js';

/** Options of {@link TokenVerifier.create}: how the gateway checks a client's bearer token. */
export interface TokenOptions {
  /** A JWKS: a file path, or an `http(s)://` URL (fetched and cached by `jose`). */
  readonly jwks: string;
  /** The audience a token must be issued for (RFC 8707: the gateway's resource URL, usually). */
  readonly audience: string;
  /** The issuer a token must come from, when given. */
  readonly issuer?: string;
  /** The claim naming the agent (default `sub`). */
  readonly agentClaim?: string;
  /** The claim naming the workspace, when tokens carry one. */
  readonly workspaceClaim?: string;
}

/** A verified token: who the agent is, per its claims. */
export interface VerifiedToken {
  readonly agentId: string;
  readonly workspace: string | undefined;
  readonly claims: { readonly [claim: string]: unknown };
}

/** Why a request was not let in. `missing`: no bearer token; `invalid`: one that does not verify. */
export type TokenProblem = { readonly kind: 'missing' | 'invalid'; readonly description: string };

type Jose = typeof import('jose');

/** Why token checking could not be set up. */
export type TokenSetupCode = 'jose_missing' | 'jwks_unreadable' | 'jwks_invalid';

/** Token checking could not be set up (`--jwks`): the gateway does not start without it. */
export class TokenSetupError extends Error {
  override readonly name = 'TokenSetupError' as const;
  readonly code: TokenSetupCode;

  constructor(code: TokenSetupCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** True when `value` is a {@link TokenSetupError} (by name, so it works across realms). */
export function isTokenSetupError(value: unknown): value is TokenSetupError {
  return value instanceof Error && value.name === 'TokenSetupError';
}

/**
 * Checks bearer tokens (JWTs) against a JWKS with `jose` — signature, expiry, not-before, audience,
 * issuer — and reads the agent (and workspace) from their claims. `jose` is loaded only when a
 * gateway is started with `--jwks`.
 */
export class TokenVerifier {
  readonly #jose: Jose;
  readonly #keys: Parameters<Jose['jwtVerify']>[1];
  readonly #options: TokenOptions;

  private constructor(jose: Jose, keys: Parameters<Jose['jwtVerify']>[1], options: TokenOptions) {
    this.#jose = jose;
    this.#keys = keys;
    this.#options = options;
  }

  /** Load the JWKS (a file is read and checked now; a URL is fetched on first use, then cached). */
  static async create(options: TokenOptions): Promise<TokenVerifier> {
    let jose: Jose;
    try {
      jose = await importOptional('jose', () => import('jose'));
    } catch (error) {
      if (!isPackageMissingError(error)) throw error;
      throw new TokenSetupError('jose_missing', error.message, { cause: error });
    }
    if (/^https?:\/\//.test(options.jwks)) return new TokenVerifier(jose, jose.createRemoteJWKSet(new URL(options.jwks)), options);
    let text: string;
    try {
      text = await readFile(options.jwks, 'utf8');
    } catch (error) {
      throw new TokenSetupError('jwks_unreadable', `cannot read the JWKS ${JSON.stringify(options.jwks)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
    }
    try {
      return new TokenVerifier(jose, jose.createLocalJWKSet(JSON.parse(text) as Parameters<Jose['createLocalJWKSet']>[0]), options);
    } catch (error) {
      throw new TokenSetupError('jwks_invalid', `the JWKS ${JSON.stringify(options.jwks)} is not a JSON Web Key Set (${(error as Error).message})`, { cause: error });
    }
  }

  /** Verify the `Authorization` header of a request. */
  async verify(authorization: string | undefined): Promise<VerifiedToken | TokenProblem> {
    const match = /^Bearer\s+([^\s]+)\s*$/i.exec(authorization ?? '');
    if (match === null) return { kind: 'missing', description: 'a bearer token is required' };
    let payload: { [claim: string]: unknown };
    try {
      ({ payload } = await this.#jose.jwtVerify(match[1] as string, this.#keys, {
        audience: this.#options.audience,
        ...(this.#options.issuer === undefined ? {} : { issuer: this.#options.issuer }),
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { kind: 'invalid', description: `the token does not verify${typeof code === 'string' ? ` (${code})` : ''}` };
    }
    const claim = this.#options.agentClaim ?? 'sub';
    const agentId = payload[claim];
    if (typeof agentId !== 'string' || agentId === '') return { kind: 'invalid', description: `the token has no "${claim}" claim naming the agent` };
    const workspaceClaim = this.#options.workspaceClaim;
    const workspace = workspaceClaim === undefined ? undefined : payload[workspaceClaim];
    return { agentId, workspace: typeof workspace === 'string' && workspace !== '' ? workspace : undefined, claims: payload };
  }
}

/** True when `value` is a verified token (not a problem). */
export function isVerified(value: VerifiedToken | TokenProblem): value is VerifiedToken {
  return 'agentId' in value;
}

/** The gateway's own defaults for identity (`--agent-id`, `--workspace`). */
export interface IdentityDefaults {
  readonly agentId: string | undefined;
  readonly workspace: string;
}

/** The agent id used when nothing says who the client is. */
export const UNKNOWN_CLIENT = 'mcp-client';

/**
 * Who a request is made for, in the order issue 22 fixes: the verified bearer token's claims; the
 * request's own `_meta` client info (2026-07-28); the session's `initialize` (2025-11-25); the
 * gateway's `--agent-id` / `--workspace`. The workspace comes from the token's workspace claim, else
 * `--workspace`.
 */
export function resolveIdentity(request: Pick<JSONRPCRequest, 'params'>, sessionClientName: string | undefined, token: VerifiedToken | undefined, defaults: IdentityDefaults): Identity {
  return {
    agentId: token?.agentId ?? metaClientName(request) ?? sessionClientName ?? defaults.agentId ?? UNKNOWN_CLIENT,
    workspace: token?.workspace ?? defaults.workspace,
  };
}
