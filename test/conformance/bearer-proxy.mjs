// The conformance CLI connects without credentials; RDE's MCP endpoint wants a bearer. This relays
// every request to the gateway unchanged (Host and Origin included, for the DNS-rebinding checks)
// with the run's API key added, and prints the port it listens on (port 0: any free one).
import http from 'node:http';
import { URL } from 'node:url';

const [target, key] = process.argv.slice(2);
const upstream = new URL(target);

const server = http.createServer((request, response) => {
  const relayed = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, authorization: `Bearer ${key}` },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  relayed.on('error', () => response.writeHead(502).end());
  request.pipe(relayed);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
