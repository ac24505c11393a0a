// The node subprocess hook of the benchmark: read the request, answer allow. As small as a real
// node hook can be, so what is measured is node's start plus the host's work around it.
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => process.stdout.write('{"decision":"allow"}\n'));
