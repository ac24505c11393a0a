/** Module hooks of use-dist.mjs: `host/<x>.ts` → `dist/<x>.js` (the build mirrors host/). */
let host = '';
let dist = '';

export function initialize(data) {
  host = `${data.host}/`;
  dist = `${data.dist}/`;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith(host) && resolved.url.endsWith('.ts') && !resolved.url.endsWith('.d.ts')) {
    return { ...resolved, url: `${dist}${resolved.url.slice(host.length, -3)}.js`, format: 'module' };
  }
  return resolved;
}
