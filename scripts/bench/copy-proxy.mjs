#!/usr/bin/env node
// The floor of an HTTP hop, for scripts/bench/mcp-http.ts: a proxy that copies each request to the
// upstream and its answer back, with Node's own http client and server and nothing else (no MCP, no
// hooks). What the gateway adds beyond this is its own work.
//
//   node copy-proxy.mjs <upstream url> <port>     (prints "listening on http://127.0.0.1:PORT/mcp")
import http from 'node:http';

const upstream = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const headers = { ...request.headers };
    delete headers.host;
    delete headers.connection;
    const out = http.request(upstream, { method: request.method, headers, agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    out.once('error', () => response.destroy());
    out.end(Buffer.concat(chunks));
  });
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`));
