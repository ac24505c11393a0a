/**
 * What the PID-namespace wrapper costs a subprocess hook: the same hook (a POSIX sh one and a Node
 * one) through the subprocess transport with and without containment, interleaved so the machine's
 * load hits both alike. `npx tsx scripts/robust/spawn-overhead.ts [rounds]`.
 */
import { spawn } from 'node:child_process';
import { containment, contained } from '../../host/transports/subprocess/containment.js';

const rounds = Number(process.argv[2] ?? 40);
const HOOKS = {
  sh: ['/bin/sh', '-c', 'cat >/dev/null; echo \'{"decision":"allow"}\''],
  node: [process.execPath, '-e', 'process.stdin.resume();process.stdin.on("end",()=>process.stdout.write(\'{"decision":"allow"}\'))'],
} as const;

function once(file: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && out.includes('allow') ? resolve(performance.now() - started) : reject(new Error(`exit ${String(code)}: ${out}`))));
    child.stdin.end('{"hook_schema":1}\n');
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
}

const how = await containment();
console.log(`containment: ${how.kind}${how.kind === 'pid-namespace' ? ` (${how.unshare} ${how.flags.join(' ')})` : ` — ${how.why}`}`);
if (how.kind !== 'pid-namespace') process.exit(0);
for (const [name, [file, ...args]] of Object.entries(HOOKS)) {
  const plain: number[] = [];
  const wrapped: number[] = [];
  const w = contained(how, file, args);
  await once(file, args);
  await once(w.file, w.args);
  for (let i = 0; i < rounds; i++) {
    plain.push(await once(file, args));
    wrapped.push(await once(w.file, w.args));
  }
  const p = median(plain);
  const c = median(wrapped);
  console.log(`${name.padEnd(5)} plain ${p.toFixed(2)} ms  contained ${c.toFixed(2)} ms  overhead ${(c - p).toFixed(2)} ms (median of ${rounds}, interleaved)`);
}
