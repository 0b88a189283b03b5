import type { Server } from 'node:http';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import type { Route } from './rest-types.ts';

const seen: string[] = [];
let release: () => void = () => {};
let server: Server;
let port: number;

const routes: Route<null>[] = [
  {
    method: 'POST',
    path: '/slow',
    action: 'test',
    handler: async (req) => {
      req.onDisconnect(() => seen.push('onDisconnect'));
      req.signal.addEventListener('abort', () => seen.push('signal'));
      await new Promise<void>((r) => {
        release = r;
      });
      return { status: 200, body: { ok: true } };
    },
  },
  {
    method: 'POST',
    path: '/echo/:name',
    action: 'test',
    handler: (req) => {
      req.onDisconnect(() => seen.push('echo disconnected'));
      return { status: 200, body: { name: req.params.name, body: req.json() } };
    },
  },
  {
    method: 'GET',
    path: '/broken',
    action: 'test',
    handler: () => {
      throw new TypeError('boom');
    },
  },
];

beforeAll(async () => {
  const app = createApp({ routes, services: null, logger: pino({ level: 'silent' }) });
  server = await new Promise<Server>((r) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => r(s as Server));
  });
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('createApp', () => {
  it('tells a handler in flight that its client went away', async () => {
    seen.length = 0;
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      'POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.sort()).toEqual(['onDisconnect', 'signal']);
    release();
  });

  it('does not call a finished request back when its keep-alive connection closes later', async () => {
    seen.length = 0;
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let data = '';
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (d) => {
        data += d;
        if (data.includes('{"name":"a b","body":{"x":1}}')) resolve();
      });
    });
    socket.write(
      'POST /echo/a%20b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"x":1}',
    );
    // The answer is read whole before the connection closes, however slow the machine is.
    await answered;
    socket.destroy();
    await new Promise((r) => setTimeout(r, 20));
    expect(data).toContain('{"name":"a b","body":{"x":1}}');
    expect(seen).toEqual([]);
  });

  it('answers an error escaping a handler in Elasticsearch format, with X-elastic-product', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/broken?filter_path=nothing`);
    expect(res.status).toBe(500);
    expect(res.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      error: { root_cause: [{ type: 'exception', reason: 'boom' }], type: 'exception', reason: 'boom' },
      status: 500,
    });
  });

  it('answers headers it cannot negotiate with a JSON error, never a bare 500', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/broken`, {
      headers: { accept: 'application/vnd.elasticsearch+json;compatible-with=9' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe(
      'media_type_header_exception',
    );
  });
});
