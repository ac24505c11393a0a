import { decoded, readInstruction, valtype } from './instructions.js';
import { MeterError, Reader } from './reader.js';

/*
 * What the rewriter needs to know about a core module before it touches its code: the sections, the
 * sizes of its index spaces, the element types of its tables, each function's parameter count, its
 * start function and whether it can catch or throw exceptions.
 */

export const SECTION = { custom: 0, type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6, export: 7, start: 8, element: 9, code: 10, data: 11, dataCount: 12, tag: 13 } as const;

/** A section of a module. */
export interface Section {
  readonly id: number;
  /** Offset of the section id byte. */
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

/** The sections of a module, in order. */
export function sections(bytes: Uint8Array): Section[] {
  const r = new Reader(bytes, 8);
  const out: Section[] = [];
  while (r.offset < bytes.length) {
    const start = r.offset;
    const id = r.byte();
    const size = r.u32();
    const contentStart = r.offset;
    r.skip(size);
    out.push({ id, start, contentStart, end: r.offset });
  }
  return out;
}

/** Element types of tables, as their type bytes. */
export const FUNCREF = 0x70;
export const EXTERNREF = 0x6f;

/** Facts about one core module. */
export interface ModuleFacts {
  /** Parameter count of each type (function types only; anything else is refused). */
  readonly typeParams: number[];
  importedFunctions: number;
  /** Type index of each function the module defines. */
  readonly functionTypes: number[];
  importedGlobals: number;
  globals: number;
  /** Value type of each mutable global the module defines, by global index. */
  readonly mutableGlobals: Map<number, number>;
  /** Element type of every table, imported ones first (the table index space). */
  readonly tables: number[];
  importedTables: number;
  /** Number of memories, imported and defined (the memory index space). */
  memories: number;
  /** Index of the start function, if any. */
  start: number | undefined;
  /** The module imports or defines exception tags (it can throw, and catch). */
  tags: boolean;
  readonly exportNames: string[];
}

function limits(r: Reader, what: string): void {
  const flags = r.byte();
  if ((flags & 0x04) !== 0) throw new MeterError(`its ${what} is 64-bit (memory64), which Node 20 does not run`);
  r.u32();
  if ((flags & 0x01) !== 0) r.u32();
}

function tableType(r: Reader): number {
  const type = valtype(r);
  if (type !== FUNCREF && type !== EXTERNREF) throw new MeterError(`a table of element type 0x${type.toString(16)}`);
  limits(r, 'table');
  return type;
}

/** Read the facts of a module whose sections are `all`. */
export function readFacts(bytes: Uint8Array, all: readonly Section[]): ModuleFacts {
  const facts: ModuleFacts = {
    typeParams: [],
    importedFunctions: 0,
    functionTypes: [],
    importedGlobals: 0,
    globals: 0,
    mutableGlobals: new Map(),
    tables: [],
    importedTables: 0,
    memories: 0,
    start: undefined,
    tags: false,
    exportNames: [],
  };
  for (const s of all) {
    const r = new Reader(bytes, s.contentStart);
    switch (s.id) {
      case SECTION.type: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          const form = r.byte();
          if (form !== 0x60) throw new MeterError(`type form 0x${form.toString(16)} (GC or typed function references)`);
          const params = r.u32();
          for (let p = 0; p < params; p++) valtype(r);
          const results = r.u32();
          for (let p = 0; p < results; p++) valtype(r);
          facts.typeParams.push(params);
        }
        break;
      }
      case SECTION.function: {
        const n = r.u32();
        for (let i = 0; i < n; i++) facts.functionTypes.push(r.u32());
        break;
      }
      case SECTION.global: {
        facts.globals = r.u32();
        const d = decoded();
        for (let i = 0; i < facts.globals; i++) {
          const type = valtype(r);
          const mutable = r.byte() === 0x01;
          if (mutable) facts.mutableGlobals.set(facts.importedGlobals + i, type);
          // The initializer: a constant expression up to its `end`.
          while (readInstruction(r, d) !== 'end');
        }
        break;
      }
      case SECTION.table: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          if (r.bytes[r.offset] === 0x40) throw new MeterError('a table with an initializer expression (typed function references)');
          facts.tables.push(tableType(r));
        }
        break;
      }
      case SECTION.memory: {
        const n = r.u32();
        for (let i = 0; i < n; i++) limits(r, 'memory');
        facts.memories += n;
        break;
      }
      case SECTION.start:
        facts.start = r.u32();
        break;
      case SECTION.tag:
        facts.tags = true;
        break;
      case SECTION.import: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          r.name();
          r.name();
          const kind = r.byte();
          if (kind === 0x00) {
            facts.importedFunctions++;
            r.u32();
          } else if (kind === 0x01) {
            facts.tables.push(tableType(r));
            facts.importedTables++;
          } else if (kind === 0x02) {
            limits(r, 'memory');
            facts.memories++;
          } else if (kind === 0x03) {
            facts.importedGlobals++;
            valtype(r);
            r.byte();
          } else if (kind === 0x04) {
            facts.tags = true;
            r.byte();
            r.u32();
          } else {
            throw new MeterError(`unknown import kind ${kind}`);
          }
        }
        break;
      }
      case SECTION.export: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          facts.exportNames.push(r.name());
          r.byte();
          r.u32();
        }
        break;
      }
    }
  }
  return facts;
}
