import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturedBodyMessage } from './captured-body.ts';
import { readRawBody } from './request-body.ts';

let port: number;
/** What the last request's body read ended with, when it failed. */
let lastFailure: Promise<Error>;

async function listen(options: { IncomingMessage?: typeof IncomingMessage }): Promise<Server> {
  let failed!: (e: Error) => void;
  lastFailure = new Promise((r) => {
    failed = r;
  });
  const server = createServer(options, async (req, res) => {
    try {
      const body = await readRawBody(req);
      res.end(body === undefined ? '<none>' : `${body.length}:${body.toString()}`);
    } catch (e) {
      failed(e as Error);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
  return server;
}

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

describe.each([
  ["a node's requests (CapturedBodyMessage)", { IncomingMessage: CapturedBodyMessage }],
  ['plain requests (streamed)', {}],
])('readRawBody of %s', (_name, options) => {
  let server: Server;
  beforeAll(async () => {
    server = await listen(options);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

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

  it('reads two requests on one connection, each its own body', async () => {
    const two = `${head(9)}{"a":[1]}${head(9)}{"b":[2]}`;
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => {
      data += d;
    });
    socket.write(two);
    await new Promise((r) => setTimeout(r, 60));
    socket.destroy();
    expect(data.match(/\r\n\r\n9:\{"[ab]":\[[12]\]\}/g)).toEqual([
      '\r\n\r\n9:{"a":[1]}',
      '\r\n\r\n9:{"b":[2]}',
    ]);
  });

  it('fails the read when the client goes away before the body is complete', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`${head(100)}{"partial":`);
    await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    const err = await lastFailure;
    expect(err).toBeInstanceOf(Error);
  });
});
