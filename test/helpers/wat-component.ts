/**
 * Build a self-contained WAT test guest (test/fixtures/wat/) into a component at test time: WAT →
 * core module → the `basis:hook` world embedded → component, with jco's wasm-tools, in memory. The
 * result is written under the gitignored `.cache/` and reused while the source and jco are unchanged.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadWasmTools } from '../../host/kit/build/wasm-tools.js';
import { ROOT } from './guests.js';

const OUT_DIR = join(ROOT, '.cache', 'test-wat');

/** Path of the component built from `test/fixtures/wat/<name>.wat`. */
export async function watFixtureComponent(name: string): Promise<string> {
  const source = await readFile(join(ROOT, 'test/fixtures/wat', `${name}.wat`), 'utf8');
  const wit = await readFile(join(ROOT, 'wit/hook.wit'), 'utf8');
  const jcoVersion = (JSON.parse(await readFile(join(ROOT, 'node_modules/@bytecodealliance/jco-transpile/package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(source).update('\0').update(wit).update('\0').update(jcoVersion).digest('hex').slice(0, 16);
  const out = join(OUT_DIR, `${name}-${hash}.wasm`);
  if (existsSync(out)) return out;
  const jco = await loadWasmTools();
  const core = await jco.parse(source);
  const embedded = await jco.componentEmbed({ binary: core, witSource: wit, world: 'hook', stringEncoding: 'utf8' });
  const component = await jco.componentNew(embedded, []);
  await mkdir(OUT_DIR, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  await writeFile(tmp, component);
  await rename(tmp, out);
  return out;
}
