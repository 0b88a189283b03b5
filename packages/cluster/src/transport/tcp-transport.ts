/**
 * Node-to-node transport over TCP: one persistent outbound connection per remote address,
 * opened on first use and named by a hello frame each way (the remote node's identity); one-way
 * messages and requests with ids, timeouts and cancellation; a connection that fails is tried
 * again with a growing back-off, and its loss is reported so that coordination can fail the
 * node at once. Messages are handed to the socket in order; a socket that cannot keep up
 * buffers them and `write` reports it (`backlogBytes`).
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import type { DiscoveryNode } from '../coordination/cluster-state.ts';
import { type Envelope, encodeFrame, FrameDecoder } from './frame.ts';

export class TransportError extends Error {}
export class ConnectTransportError extends TransportError {}
export class RequestTimeoutError extends TransportError {}

export type MessageHandler = (from: DiscoveryNode, body: unknown) => void;
export type RequestHandler = (
  from: DiscoveryNode,
  body: unknown,
  signal: AbortSignal,
) => Promise<unknown> | unknown;

export interface TransportOptions {
  local: DiscoveryNode;
  clusterName: string;
  host: string;
  port: number;
  /** First reconnect delay, doubled up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  connectTimeoutMs?: number;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout | null;
}

class Connection {
  remote: DiscoveryNode | null = null;
  readonly ready: Promise<DiscoveryNode>;
  private resolveReady!: (n: DiscoveryNode) => void;
  private rejectReady!: (e: Error) => void;
  readonly pending = new Map<number, Pending>();
  /** Requests this side is serving, by id, so a cancel can abort them. */
  readonly serving = new Map<number, AbortController>();
  closed = false;

  constructor(readonly socket: Socket) {
    this.ready = new Promise((res, rej) => {
      this.resolveReady = res;
      this.rejectReady = rej;
    });
    this.ready.catch(() => {});
  }

  hello(node: DiscoveryNode): void {
    this.remote = node;
    this.resolveReady(node);
  }

  fail(e: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.rejectReady(e);
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(e);
    }
    this.pending.clear();
    for (const c of this.serving.values()) c.abort();
    this.serving.clear();
    this.socket.destroy();
  }

  write(e: Envelope): boolean {
    if (this.closed) return false;
    return this.socket.write(encodeFrame(e));
  }
}

const address = (host: string, port: number) => `${host}:${port}`;

export class TcpTransport {
  private server: Server | null = null;
  private readonly outbound = new Map<string, Connection>();
  private readonly inbound = new Set<Connection>();
  private readonly backoff = new Map<string, { until: number; delay: number }>();
  private readonly messageHandlers = new Map<string, MessageHandler>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly disconnectListeners: ((node: DiscoveryNode) => void)[] = [];
  private nextRequestId = 1;
  private stopped = false;
  boundPort = 0;

  constructor(private readonly opts: TransportOptions) {}

  get local(): DiscoveryNode {
    return this.opts.local;
  }

  onMessage(action: string, h: MessageHandler): void {
    this.messageHandlers.set(action, h);
  }

  onRequest(action: string, h: RequestHandler): void {
    this.requestHandlers.set(action, h);
  }

  /** Called when a connection to a node is lost, or a message finds the node unreachable. */
  onDisconnect(listener: (node: DiscoveryNode) => void): void {
    this.disconnectListeners.push(listener);
  }

  async start(): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(this.opts.port, this.opts.host, () => res());
    });
    const a = server.address();
    this.boundPort = typeof a === 'object' && a ? a.port : this.opts.port;
    return this.boundPort;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const closing = new TransportError('transport stopped');
    for (const c of [...this.outbound.values(), ...this.inbound]) c.fail(closing);
    this.outbound.clear();
    this.inbound.clear();
    await new Promise<void>((res) => (this.server ? this.server.close(() => res()) : res()));
  }

  /** Connects to an address (a seed host) and returns the node found there. */
  async connect(host: string, port: number): Promise<DiscoveryNode> {
    if (this.stopped) throw new TransportError('transport stopped');
    return this.connection(host, port).ready;
  }

  /**
   * A one-way message; dropped (and false) when the node cannot be reached now. A node that
   * cannot be reached — refused, backing off, or another incarnation at its address — is
   * reported to the disconnect listeners, as a lost connection is.
   */
  send(to: DiscoveryNode, action: string, body: unknown): boolean {
    const c = this.connectionTo(to);
    if (!c) {
      this.unreachable(to);
      return false;
    }
    if (c.remote) {
      if (this.checked(c, to)) return c.write({ k: 'msg', action, body });
      this.unreachable(to);
      return false;
    }
    c.ready.then(
      () => {
        if (this.checked(c, to)) c.write({ k: 'msg', action, body });
        else this.unreachable(to);
      },
      () => this.unreachable(to),
    );
    return true;
  }

  private unreachable(node: DiscoveryNode): void {
    if (!this.stopped) for (const l of this.disconnectListeners) l(node);
  }

  /** A request; rejects with ConnectTransportError, RequestTimeoutError, an abort, or the remote error. */
  async request<T = unknown>(
    to: DiscoveryNode,
    action: string,
    body: unknown,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const c = this.connectionTo(to);
    if (!c) throw new ConnectTransportError(`[${to.name}][${to.host}:${to.transportPort}] connect_exception`);
    await c.ready;
    if (!this.checked(c, to)) {
      throw new ConnectTransportError(`[${to.name}] is no longer at [${to.host}:${to.transportPort}]`);
    }
    const id = this.nextRequestId++;
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        const p = c.pending.get(id);
        if (!p) return;
        c.pending.delete(id);
        if (p.timer) clearTimeout(p.timer);
        c.write({ k: 'cancel', id });
        reject(
          opts.signal?.reason instanceof Error ? opts.signal.reason : new TransportError('request cancelled'),
        );
      };
      const timer =
        opts.timeoutMs === undefined
          ? null
          : setTimeout(() => {
              c.pending.delete(id);
              done();
              c.write({ k: 'cancel', id });
              reject(
                new RequestTimeoutError(
                  `[${to.name}][${action}] request_id [${id}] timed out after [${opts.timeoutMs}ms]`,
                ),
              );
            }, opts.timeoutMs);
      c.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v as T);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        timer,
      });
      if (opts.signal) {
        if (opts.signal.aborted) return onAbort();
        opts.signal.addEventListener('abort', onAbort, { once: true });
      }
      c.write({ k: 'req', id, action, body });
    });
  }

  /** The connection's remote node must be the one addressed (a restarted node is another member). */
  private checked(c: Connection, to: DiscoveryNode): boolean {
    const r = c.remote;
    return !!r && r.id === to.id && (to.ephemeralId === '' || r.ephemeralId === to.ephemeralId);
  }

  private connectionTo(to: DiscoveryNode): Connection | null {
    if (to.id === this.opts.local.id || this.stopped) return null;
    const key = address(to.host, to.transportPort);
    const b = this.backoff.get(key);
    if (b && Date.now() < b.until && !this.outbound.has(key)) return null;
    return this.connection(to.host, to.transportPort);
  }

  private connection(host: string, port: number): Connection {
    const key = address(host, port);
    const existing = this.outbound.get(key);
    if (existing && !existing.closed) return existing;
    const socket = tcpConnect({ host, port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1_000);
    const c = new Connection(socket);
    this.outbound.set(key, c);
    const timer = setTimeout(
      () => c.fail(new ConnectTransportError(`connect to [${key}] timed out`)),
      this.opts.connectTimeoutMs ?? 3_000,
    );
    c.ready.then(
      () => {
        clearTimeout(timer);
        this.backoff.delete(key);
      },
      () => clearTimeout(timer),
    );
    socket.once('connect', () => c.write(this.hello()));
    this.wire(c, () => {
      if (this.outbound.get(key) === c) this.outbound.delete(key);
      const prev = this.backoff.get(key);
      const delay = Math.min(
        (prev?.delay ?? (this.opts.backoffMs ?? 100) / 2) * 2,
        this.opts.maxBackoffMs ?? 5_000,
      );
      this.backoff.set(key, { until: Date.now() + delay, delay });
    });
    return c;
  }

  private hello(): Envelope {
    return { k: 'hello', node: this.opts.local, clusterName: this.opts.clusterName };
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1_000);
    const c = new Connection(socket);
    this.inbound.add(c);
    c.write(this.hello());
    this.wire(c, () => this.inbound.delete(c));
  }

  private wire(c: Connection, onClose: () => void): void {
    const decoder = new FrameDecoder();
    c.socket.on('data', (chunk: Buffer) => {
      let frames: Envelope[];
      try {
        frames = decoder.push(chunk);
      } catch (e) {
        c.fail(e as Error);
        return;
      }
      for (const f of frames) this.receive(c, f);
    });
    const closed = (why: Error) => {
      const remote = c.remote;
      const wasOpen = !c.closed;
      c.fail(why);
      onClose();
      if (wasOpen && remote && !this.stopped) for (const l of this.disconnectListeners) l(remote);
    };
    c.socket.on('error', (e) => closed(new ConnectTransportError(e.message)));
    c.socket.on('close', () => closed(new ConnectTransportError('connection closed')));
  }

  private receive(c: Connection, f: Envelope): void {
    if (f.k === 'hello') {
      if (f.clusterName !== this.opts.clusterName) {
        c.fail(
          new ConnectTransportError(
            `remote is in cluster [${f.clusterName}], not [${this.opts.clusterName}]`,
          ),
        );
        return;
      }
      c.hello(f.node as DiscoveryNode);
      return;
    }
    const from = c.remote;
    if (!from) {
      c.fail(new ConnectTransportError('a frame before the hello'));
      return;
    }
    switch (f.k) {
      case 'msg':
        this.messageHandlers.get(f.action)?.(from, f.body);
        return;
      case 'req':
        this.serve(c, from, f.id, f.action, f.body);
        return;
      case 'res':
      case 'err': {
        const p = c.pending.get(f.id);
        if (!p) return;
        c.pending.delete(f.id);
        if (p.timer) clearTimeout(p.timer);
        if (f.k === 'res') p.resolve(f.body);
        else p.reject(new TransportError(f.message));
        return;
      }
      case 'cancel':
        c.serving.get(f.id)?.abort();
        c.serving.delete(f.id);
        return;
    }
  }

  private serve(c: Connection, from: DiscoveryNode, id: number, action: string, body: unknown): void {
    const h = this.requestHandlers.get(action);
    if (!h) {
      c.write({ k: 'err', id, message: `no handler for action [${action}]` });
      return;
    }
    const ac = new AbortController();
    c.serving.set(id, ac);
    Promise.resolve()
      .then(() => h(from, body, ac.signal))
      .then(
        (res) => {
          if (c.serving.delete(id)) c.write({ k: 'res', id, body: res });
        },
        (e) => {
          if (c.serving.delete(id))
            c.write({ k: 'err', id, message: e instanceof Error ? e.message : String(e) });
        },
      );
  }
}
