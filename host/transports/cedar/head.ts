/**
 * A Cedar policy's head read in JavaScript — its annotations, its effect and its scope — so that a
 * set of hundreds of policies loads without a round trip into the engine per policy (~5 ms each on
 * this machine, more than the engine's parse of the whole set). It reads only the forms it is sure of
 * and gives up (`undefined`) on anything else — a slot, an escape it does not decode, a comment where
 * it does not expect one, an unusual spacing it cannot tokenize —, and then the engine's
 * `policyToJson` is asked instead. A test holds it to `policyToJson` on every policy it reads.
 */
import type { ScopeJson } from './scope.js';

/** What {@link readHead} reads of a policy. */
export interface PolicyHead {
  readonly effect: 'permit' | 'forbid';
  /** As the engine gives them: an annotation without a value is `null`. */
  readonly annotations: Readonly<Record<string, string | null>>;
  readonly scope: ScopeJson;
}

type Token = { readonly kind: 'ident' | 'string' | 'punct'; readonly text: string };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

/** The tokens of a policy's text up to the end of its scope (`)`), or undefined when unsure. */
function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  let depth = 0;
  let seenEffect = false;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      i++;
      continue;
    }
    if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (char === '"') {
      let value = '';
      i++;
      for (;;) {
        const c = text[i];
        if (c === undefined) return undefined;
        if (c === '"') break;
        if (c === '\\') {
          const next = text[i + 1];
          if (next === '"' || next === '\\') value += next;
          else if (next === 'n') value += '\n';
          else if (next === 't') value += '\t';
          else return undefined;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      i++;
      out.push({ kind: 'string', text: value });
      continue;
    }
    const ident = IDENT.exec(text.slice(i, i + 256))?.[0];
    if (ident !== undefined) {
      out.push({ kind: 'ident', text: ident });
      i += ident.length;
      if (ident === 'permit' || ident === 'forbid') seenEffect = true;
      continue;
    }
    if (text.startsWith('::', i) || text.startsWith('==', i)) {
      out.push({ kind: 'punct', text: text.slice(i, i + 2) });
      i += 2;
      continue;
    }
    if ('@(),[]'.includes(char)) {
      out.push({ kind: 'punct', text: char });
      i++;
      if (char === '(' && seenEffect) depth++;
      if (char === ')' && seenEffect && --depth === 0) return out;
      continue;
    }
    // `?principal`, operators, anything else: not a form read here.
    return undefined;
  }
  return undefined;
}

class Reader {
  #at = 0;
  constructor(private readonly list: readonly Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.list[this.#at + offset];
  }

  take(text?: string): Token {
    const token = this.list[this.#at];
    if (token === undefined || (text !== undefined && token.text !== text)) throw new Unsure();
    this.#at++;
    return token;
  }

  done(): boolean {
    return this.#at === this.list.length;
  }
}

class Unsure extends Error {}

/** `A::B::"id"` → `{type: "A::B", id}`. */
function entity(reader: Reader): { type: string; id: string } {
  const path: string[] = [reader.take().text];
  for (;;) {
    reader.take('::');
    const next = reader.take();
    if (next.kind === 'string') return { type: path.join('::'), id: next.text };
    if (next.kind !== 'ident') throw new Unsure();
    path.push(next.text);
  }
}

/** `A::B` (an entity type, for `is`). */
function typePath(reader: Reader): string {
  const path: string[] = [reader.take().text];
  while (reader.peek()?.text === '::') {
    reader.take('::');
    const next = reader.take();
    if (next.kind !== 'ident') throw new Unsure();
    path.push(next.text);
  }
  return path.join('::');
}

function principalOrResource(reader: Reader, variable: 'principal' | 'resource'): unknown {
  reader.take(variable);
  const op = reader.peek()?.text;
  if (op === '==') {
    reader.take();
    return { op: '==', entity: entity(reader) };
  }
  if (op === 'in') {
    reader.take();
    return { op: 'in', entity: entity(reader) };
  }
  if (op === 'is') {
    reader.take();
    const type = typePath(reader);
    if (reader.peek()?.text === 'in') {
      reader.take();
      return { op: 'is', entity_type: type, in: { entity: entity(reader) } };
    }
    return { op: 'is', entity_type: type };
  }
  return { op: 'All' };
}

function action(reader: Reader): unknown {
  reader.take('action');
  const op = reader.peek()?.text;
  if (op === '==') {
    reader.take();
    return { op: '==', entity: entity(reader) };
  }
  if (op === 'in') {
    reader.take();
    if (reader.peek()?.text !== '[') return { op: 'in', entity: entity(reader) };
    reader.take('[');
    const entities = [entity(reader)];
    while (reader.peek()?.text === ',') {
      reader.take(',');
      entities.push(entity(reader));
    }
    reader.take(']');
    // As the engine has it: a list of one is that one entity.
    return entities.length === 1 ? { op: 'in', entity: entities[0] } : { op: 'in', entities };
  }
  return { op: 'All' };
}

/** A policy's head, or `undefined` when it is not a form read here (then ask the engine). */
export function readHead(text: string): PolicyHead | undefined {
  const list = tokens(text);
  if (list === undefined) return undefined;
  const reader = new Reader(list);
  try {
    const annotations: Record<string, string | null> = {};
    while (reader.peek()?.text === '@') {
      reader.take('@');
      const name = reader.take();
      if (name.kind !== 'ident' || Object.hasOwn(annotations, name.text)) return undefined;
      let value: string | null = null;
      if (reader.peek()?.text === '(') {
        reader.take('(');
        const string = reader.take();
        if (string.kind !== 'string') return undefined;
        value = string.text;
        reader.take(')');
      }
      annotations[name.text] = value;
    }
    const effect = reader.take().text;
    if (effect !== 'permit' && effect !== 'forbid') return undefined;
    reader.take('(');
    const principal = principalOrResource(reader, 'principal');
    reader.take(',');
    const act = action(reader);
    reader.take(',');
    const resource = principalOrResource(reader, 'resource');
    reader.take(')');
    if (!reader.done()) return undefined;
    return { effect, annotations, scope: { principal, action: act, resource } };
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}
