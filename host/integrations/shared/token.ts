import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';

/** Shortest token accepted: 128 bits of hex. */
const MIN_TOKEN_LENGTH = 32;

/** Why a token file was refused. */
export class TokenFileError extends Error {
  override readonly name = 'TokenFileError' as const;
  readonly code: 'unreadable' | 'too_open' | 'too_short';

  constructor(code: TokenFileError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Read the bearer token a hook server requires, from a file only its owner can read — creating it
 * (32 random bytes as hex, mode 0600, never overwriting) when it does not exist, so one flag serves
 * both the server and the settings printed for it. A file that group or others can read or write is
 * refused: the token is all that stands between a local process and the chain's decisions.
 */
export async function readTokenFile(file: string): Promise<{ readonly token: string; readonly created: boolean }> {
  let created = false;
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(`${randomBytes(32).toString('hex')}\n`);
    } finally {
      await handle.close();
    }
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new TokenFileError('unreadable', `cannot create the token file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
    }
  }
  let text: string;
  try {
    const info = await stat(file);
    if ((info.mode & 0o077) !== 0) {
      throw new TokenFileError('too_open', `the token file ${file} is readable or writable by others (mode ${(info.mode & 0o777).toString(8)}): chmod 600 it`);
    }
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof TokenFileError) throw error;
    throw new TokenFileError('unreadable', `cannot read the token file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  const token = text.trim();
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new TokenFileError('too_short', `the token in ${file} must be one word of at least ${MIN_TOKEN_LENGTH} characters (delete the file to have one made)`);
  }
  return { token, created };
}

/**
 * Whether an `Authorization` header carries `Bearer <token>`, compared in constant time (digests of
 * both sides, so neither length nor content leaks through timing).
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const given = match?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
