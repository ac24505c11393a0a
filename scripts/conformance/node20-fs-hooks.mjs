/** Module hooks of node20-fs.mjs: `fs` imported from the conformance package gets `globSync` added. */
const SHIM = 'basis-node20-fs:fs';

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url !== SHIM) return next(url, context);
  const source = `
import fs from 'node:fs';
import path from 'node:path';
export * from 'node:fs';
export default fs;
// The pattern the suite uses, "**" + "/NAME": every file called NAME under cwd.
export function globSync(pattern, options = {}) {
  if (fs.globSync) return fs.globSync(pattern, options);
  const cwd = options.cwd ?? process.cwd();
  const name = String(pattern).replace(/^\\*\\*\\//, '');
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name === name) found.push(relative);
    }
  };
  walk('');
  return found;
}
`;
  return { format: 'module', source, shortCircuit: true };
}
