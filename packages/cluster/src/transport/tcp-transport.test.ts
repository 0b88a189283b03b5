import { afterEach, describe, expect, it } from 'vitest';
import type { DiscoveryNode } from '../coordination/cluster-state.ts';
import { ConnectTransportError, RequestTimeoutError, TcpTransport } from './tcp-transport.ts';

const started: TcpTransport[] = [];

function node(name: string, ephemeralId = `${name}-e1`): DiscoveryNode {
  return {
    id: `${name}-id`,
    name,
    ephemeralId,
    host: '127.0.0.1',
    transportPort: 0,
    httpPort: 0,
    roles: ['master'],
  };
}

async function transport(name: string, opts: { port?: number; ephemeralId?: string; cluster?: string } = {}) {
  const local = node(name, opts.ephemeralId);
  const t = new TcpTransport({
    local,
    clusterName: opts.cluster ?? 'test',
    host: '127.0.0.1',
    port: opts.port ?? 0,
    backoffMs: 20,
  });
  local.transportPort = await t.start();
  started.push(t);
  return t;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.stop()));
});

const waitFor = async (p: () => boolean) => {
  for (let i = 0; i < 200 && !p(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(p()).toBe(true);
};

describe('TcpTransport over loopback', () => {
  it('names the node at a seed address, and carries messages in order with bytes as bytes', async () => {
    const a = await transport('a');
    const b = await transport('b');
    const got: unknown[] = [];
    b.onMessage('note', (from, body) => got.push([from.name, body]));
    const found = await a.connect('127.0.0.1', b.local.transportPort);
    expect(found.id).toBe('b-id');
    for (let i = 0; i < 100; i++) a.send(found, 'note', { i, raw: Buffer.from([i]) });
    await waitFor(() => got.length === 100);
    got.forEach((g, i) => {
      const [from, body] = g as [string, { i: number; raw: Uint8Array }];
      expect(from).toBe('a');
      expect(body.i).toBe(i);
      expect(body.raw[0]).toBe(i);
    });
  });

  it('answers requests, passes remote errors, times out and cancels', async () => {
    const a = await transport('a');
    const b = await transport('b');
    let aborted = false;
    b.onRequest('echo', (_from, body) => ({ echoed: body }));
    b.onRequest('fail', () => {
      throw new Error('no such thing');
    });
    b.onRequest('hang', (_from, _body, signal) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return new Promise(() => {});
    });
    const bn = await a.connect('127.0.0.1', b.local.transportPort);
    expect(await a.request(bn, 'echo', [1, 'x'])).toEqual({ echoed: [1, 'x'] });
    await expect(a.request(bn, 'fail', null)).rejects.toThrow('no such thing');
    await expect(a.request(bn, 'missing', null)).rejects.toThrow('no handler for action [missing]');
    await expect(a.request(bn, 'hang', null, { timeoutMs: 50 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await waitFor(() => aborted);
    aborted = false;
    const ac = new AbortController();
    const pending = a.request(bn, 'hang', null, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('client went away')), 20);
    await expect(pending).rejects.toThrow('client went away');
    await waitFor(() => aborted);
  });

  it('reports a lost connection, and reaches the node again once it is back (after back-off)', async () => {
    const a = await transport('a');
    const b = await transport('b');
    const port = b.local.transportPort;
    const lost: string[] = [];
    a.onDisconnect((n) => lost.push(n.name));
    const bn = await a.connect('127.0.0.1', port);
    await b.stop();
    await waitFor(() => lost.includes('b'));
    await expect(a.request(bn, 'echo', null)).rejects.toBeInstanceOf(ConnectTransportError);
    // A message to a node that cannot be reached is reported too (so coordination fails it at once).
    lost.length = 0;
    a.send(bn, 'note', null);
    await waitFor(() => lost.includes('b'));
    const b2 = await transport('b', { port });
    b2.onRequest('echo', () => 'back');
    let answer: unknown;
    for (let i = 0; i < 100 && answer === undefined; i++) {
      answer = await a.request(bn, 'echo', null).catch(() => undefined);
      if (answer === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer).toBe('back');
  });

  it('refuses a message for an earlier incarnation of the node, and a node of another cluster', async () => {
    const a = await transport('a');
    const b = await transport('b', { ephemeralId: 'b-e2' });
    const c = await transport('c', { cluster: 'other' });
    b.onRequest('echo', () => 'ok');
    const stale = { ...b.local, ephemeralId: 'b-e1' };
    await expect(a.request(stale, 'echo', null)).rejects.toBeInstanceOf(ConnectTransportError);
    expect(await a.request(b.local, 'echo', null)).toBe('ok');
    await expect(a.connect('127.0.0.1', c.local.transportPort)).rejects.toThrow('cluster [other]');
  });
});
