/** What {@link shellWords} made of a command string. */
export interface ShellWords {
  /**
   * The words of the first simple command, quotes removed and `$NAME` / `${NAME}` expanded — every
   * word when the string is one simple command, else those before the first shell operator.
   */
  readonly words: readonly string[];
  /** The first construct that ended the simple command (`|`, `$(`, `*`…), or `undefined` when there is none. */
  readonly stopped?: string;
  /** The string cannot be parsed by any shell (an unterminated quote): `sh -c` would fail on every call. */
  readonly broken?: string;
}

const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '\n']);
const GLOBS = new Set(['*', '?', '[']);

/**
 * Split a `sh -c` string the way the shell would, as far as that can be done without running
 * anything: words, single and double quotes, backslash escapes and `$NAME` / `${NAME}` (from `env`).
 * It stops at the first construct whose effect it cannot know ahead — an operator (`|`, `&&`, `;`,
 * a redirect), a command substitution, a glob, `~`, an unset variable — and says which. Best effort
 * by design: it tells `check` which program and files a command names, it is not a shell.
 *
 * @example
 * shellWords('python3 "$DIR/guard.py"', { DIR: '/etc/hooks' }) // { words: ['python3', '/etc/hooks/guard.py'] }
 * shellWords('pyhton3 x.py | jq .', {}) // { words: ['pyhton3', 'x.py'], stopped: '|' }
 */
export function shellWords(command: string, env: Readonly<Record<string, string | undefined>>): ShellWords {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const stop = (what: string): ShellWords => ({ words: word === undefined ? words : [...words, word], stopped: what });

  /** Expand `$NAME` / `${NAME}` at `i` (pointing at `$`); `undefined` when it cannot be known. */
  const expand = (): string | undefined => {
    const braced = command[i + 1] === '{';
    const match = (braced ? /^\$\{([A-Za-z_]\w*)\}/ : /^\$([A-Za-z_]\w*)/).exec(command.slice(i));
    if (match?.[1] === undefined) return undefined;
    const value = env[match[1]];
    if (value === undefined) return undefined;
    i += match[0].length;
    return value;
  };

  while (i < command.length) {
    const c = command[i] ?? '';
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === '#' && word === undefined) {
      break; // a comment runs to the end of the line
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return { words, broken: 'an unterminated single quote' };
      word = (word ?? '') + command.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let text = '';
      i++;
      for (;;) {
        const d = command[i];
        if (d === undefined) return { words, broken: 'an unterminated double quote' };
        if (d === '"') break;
        if (d === '\\' && i + 1 < command.length && '$`"\\\n'.includes(command[i + 1] ?? '')) {
          text += command[i + 1];
          i += 2;
        } else if (d === '$') {
          const value = expand();
          if (value === undefined) return stop(command.startsWith('$(', i) ? '$(' : describeDollar(command, i));
          text += value;
        } else if (d === '`') {
          return stop('`');
        } else {
          text += d;
          i++;
        }
      }
      word = (word ?? '') + text;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= command.length) return stop('\\');
      word = (word ?? '') + command[i + 1];
      i += 2;
    } else if (c === '$') {
      const value = expand();
      if (value === undefined) return stop(command.startsWith('$(', i) ? '$(' : describeDollar(command, i));
      word = (word ?? '') + value;
    } else if (OPERATORS.has(c) || GLOBS.has(c) || c === '`' || (c === '~' && word === undefined)) {
      return stop(c === '\n' ? 'a newline' : c);
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return { words };
}

function describeDollar(command: string, at: number): string {
  const name = /^\$\{?([A-Za-z_]\w*)/.exec(command.slice(at))?.[1];
  return name === undefined ? '$' : `$${name} (unset)`;
}
