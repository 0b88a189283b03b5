import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRawBody } from './request-body.ts';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readRawBody(req);
    res.end(body === undefined ? '<none>' : `${body.length}:${body.toString()}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Sends raw request bytes, in pieces with a pause between them; returns the response body. */
async function send(pieces: string[]): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let data = '';
  socket.on('data', (d) => {
    data += d;
  });
  for (const p of pieces) {
    socket.write(p);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 30));
  socket.destroy();
  return data.slice(data.indexOf('\r\n\r\n') + 4);
}

const head = (length: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;

describe('readRawBody', () => {
  it('reads a body that came with its headers', async () => {
    expect(await send([`${head(9)}{"a":[1]}`])).toBe('9:{"a":[1]}');
  });

  it('reads a body that arrives after its headers, in pieces', async () => {
    expect(await send([head(9), '{"a"', ':[1]}'])).toBe('9:{"a":[1]}');
  });

  it('reads a chunked body', async () => {
    const chunked = 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(await send([`${chunked}4\r\n{"a"\r\n`, '5\r\n:[1]}\r\n0\r\n\r\n'])).toBe('9:{"a":[1]}');
  });

  it('has no body without framing or with a zero length', async () => {
    expect(await send(['GET / HTTP/1.1\r\nHost: x\r\n\r\n'])).toBe('<none>');
    expect(await send([head(0)])).toBe('<none>');
  });

  it('reads multi-byte UTF-8 as bytes', async () => {
    const text = '{"q":"héllo wörld"}';
    expect(await send([`${head(Buffer.byteLength(text))}${text}`])).toBe(
      `${Buffer.byteLength(text)}:${text}`,
    );
  });
});
