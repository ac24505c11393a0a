import { isDeepStrictEqual } from 'node:util';

/** What pinning did to one hook of the file. */
export interface PinEdit {
  readonly index: number;
  readonly name: string;
  readonly sha256: string;
  /** `added`: the hook had no `sha256`; `updated`: it had another one (`previous`); `unchanged`. */
  readonly action: 'added' | 'updated' | 'unchanged';
  readonly previous?: string;
}

/** A JSON value with where it sits in the text. */
type Node =
  | { readonly kind: 'object'; readonly start: number; readonly end: number; readonly members: readonly Member[] }
  | { readonly kind: 'array'; readonly start: number; readonly end: number; readonly items: readonly Node[] }
  | { readonly kind: 'scalar'; readonly start: number; readonly end: number };

interface Member {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: Node;
}

/**
 * Write `sha256` members into the hooks of a config file's text, as a minimal edit: everything else
 * — formatting, indentation, line endings, key order — is left byte for byte as it was. A hook that
 * has a `sha256` gets its value replaced in place; one that has none gets the member appended after
 * its last one, written the way the object's own members are (the separator between them, the
 * spacing around its colons). The result is checked: it parses to the same value with the digests
 * set, or this throws.
 *
 * `digests` maps a hook's index in `hooks` to its digest; hooks not in it are left alone.
 *
 * @example
 * pinConfigText('{"hook_schema":1,"hooks":[{"name":"a","event":"pre_tool_use","component":"a.wasm"}]}', new Map([[0, 'ab…']]))
 * // → '{"hook_schema":1,"hooks":[{"name":"a","event":"pre_tool_use","component":"a.wasm","sha256":"ab…"}]}'
 */
export function pinConfigText(text: string, digests: ReadonlyMap<number, string>): { readonly text: string; readonly edits: readonly PinEdit[] } {
  const root = new Scanner(text).document();
  if (root.kind !== 'object') throw new Error('the config is not a JSON object');
  const hooksMember = [...root.members].reverse().find((m) => m.key === 'hooks');
  if (hooksMember === undefined || hooksMember.value.kind !== 'array') throw new Error('the config has no "hooks" array');
  const hooks = hooksMember.value.items;

  const splices: Array<{ readonly at: number; readonly remove: number; readonly insert: string }> = [];
  const edits: PinEdit[] = [];
  for (const [index, sha256] of [...digests.entries()].sort(([a], [b]) => a - b)) {
    const hook = hooks[index];
    if (hook === undefined || hook.kind !== 'object' || hook.members.length === 0) throw new Error(`hooks[${index}] is not a hook object`);
    const nameNode = hook.members.find((m) => m.key === 'name')?.value;
    const name = nameNode === undefined ? `hooks[${index}]` : String(JSON.parse(text.slice(nameNode.start, nameNode.end)));
    // JSON.parse keeps the last of duplicate keys: so does this.
    const existing = [...hook.members].reverse().find((m) => m.key === 'sha256');
    const literal = JSON.stringify(sha256);
    if (existing !== undefined) {
      const previous: unknown = JSON.parse(text.slice(existing.value.start, existing.value.end));
      if (previous === sha256) {
        edits.push({ index, name, sha256, action: 'unchanged' });
        continue;
      }
      splices.push({ at: existing.value.start, remove: existing.value.end - existing.value.start, insert: literal });
      edits.push({ index, name, sha256, action: 'updated', previous: String(previous) });
      continue;
    }
    const last = hook.members[hook.members.length - 1] as Member;
    splices.push({ at: last.value.end, remove: 0, insert: `${separator(text, hook)}"sha256"${colon(text, hook)}${literal}` });
    edits.push({ index, name, sha256, action: 'added' });
  }

  let out = text;
  for (const splice of splices.sort((a, b) => b.at - a.at)) {
    out = out.slice(0, splice.at) + splice.insert + out.slice(splice.at + splice.remove);
  }
  verify(text, out, digests);
  return { text: out, edits };
}

/** What goes between two members of this object: copied from the object itself. */
function separator(text: string, object: Extract<Node, { kind: 'object' }>): string {
  const [first, second] = object.members;
  if (first !== undefined && second !== undefined) return text.slice(first.value.end, second.keyStart);
  // One member: as it sits after the opening brace (a newline and its indentation, or a space, or nothing).
  const lead = text.slice(object.start + 1, (first as Member).keyStart);
  return `,${lead}`;
}

/** The colon with the spacing this object uses around it. */
function colon(text: string, object: Extract<Node, { kind: 'object' }>): string {
  const first = object.members[0] as Member;
  return text.slice(first.keyEnd, first.value.start);
}

function verify(before: string, after: string, digests: ReadonlyMap<number, string>): void {
  const expected = JSON.parse(stripBom(before)) as { hooks: Array<Record<string, unknown>> };
  for (const [index, sha256] of digests) {
    const hook = expected.hooks[index];
    if (hook !== undefined) hook['sha256'] = sha256;
  }
  if (!isDeepStrictEqual(JSON.parse(stripBom(after)), expected)) throw new Error('pinning would change more than the sha256 members (a bug): the file was left alone');
}

function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** A JSON scanner that keeps offsets. It accepts exactly what JSON.parse accepts (and a leading BOM). */
class Scanner {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
    if (text.startsWith('\uFEFF')) this.#at = 1;
  }

  document(): Node {
    const value = this.#value();
    this.#space();
    if (this.#at !== this.#text.length) this.#fail('unexpected text after the value');
    return value;
  }

  #value(): Node {
    this.#space();
    const c = this.#text[this.#at];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    if (c === '"') {
      const start = this.#at;
      this.#string();
      return { kind: 'scalar', start, end: this.#at };
    }
    const match = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.#text.slice(this.#at, this.#at + 512));
    if (match === null) this.#fail('expected a JSON value');
    const start = this.#at;
    this.#at += match[0].length;
    return { kind: 'scalar', start, end: this.#at };
  }

  #object(): Node {
    const start = this.#at++;
    const members: Member[] = [];
    this.#space();
    if (this.#text[this.#at] === '}') return { kind: 'object', start, end: ++this.#at, members };
    for (;;) {
      this.#space();
      const keyStart = this.#at;
      if (this.#text[this.#at] !== '"') this.#fail('expected a key');
      const key = this.#string();
      const keyEnd = this.#at;
      this.#space();
      if (this.#text[this.#at++] !== ':') this.#fail('expected ":"');
      const value = this.#value();
      members.push({ key, keyStart, keyEnd, value });
      this.#space();
      const c = this.#text[this.#at++];
      if (c === '}') return { kind: 'object', start, end: this.#at, members };
      if (c !== ',') this.#fail('expected "," or "}"');
    }
  }

  #array(): Node {
    const start = this.#at++;
    const items: Node[] = [];
    this.#space();
    if (this.#text[this.#at] === ']') return { kind: 'array', start, end: ++this.#at, items };
    for (;;) {
      items.push(this.#value());
      this.#space();
      const c = this.#text[this.#at++];
      if (c === ']') return { kind: 'array', start, end: this.#at, items };
      if (c !== ',') this.#fail('expected "," or "]"');
    }
  }

  /** A string token, decoded by JSON.parse itself (escapes included). */
  #string(): string {
    const start = this.#at++;
    for (;;) {
      const c = this.#text[this.#at++];
      if (c === undefined) this.#fail('unterminated string');
      if (c === '\\') this.#at++;
      else if (c === '"') break;
    }
    return JSON.parse(this.#text.slice(start, this.#at)) as string;
  }

  #space(): void {
    while (this.#at < this.#text.length && ' \t\n\r'.includes(this.#text[this.#at] as string)) this.#at++;
  }

  #fail(message: string): never {
    throw new Error(`invalid JSON at offset ${this.#at}: ${message}`);
  }
}
