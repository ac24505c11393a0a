/**
 * Where a JSON text stops being JSON: Node 20's `JSON.parse` often says only which token was
 * unexpected, not where — an entities file's error should say the line. A validating scan (it builds
 * no value) that returns the offset of the first character that cannot continue the text, or
 * `undefined` when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    for (const char of word) {
      if (text[i] !== char) fail();
      i++;
    }
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const char = text.charCodeAt(i);
      if (char === 0x22) {
        i++;
        return;
      }
      if (char < 0x20) fail();
      if (char === 0x5c) {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail();
          i += 5;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      i++;
    }
    fail();
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (match === null) fail();
    else i += match[0].length;
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (char === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
    return i === text.length ? undefined : i;
  } catch (stop) {
    if (stop instanceof Stop) return stop.at;
    throw stop;
  }
}

class Stop {
  constructor(readonly at: number) {}
}
