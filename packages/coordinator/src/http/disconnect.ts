/**
 * Client disconnects, told to the requests in flight on a connection. A connection gets one
 * 'close' listener for its lifetime and each request only adds to (and removes from) a set:
 * a keep-alive connection carries thousands of searches, and a listener, an AbortController
 * and an 'abort' listener per request cost the coordinator more than merging the hits.
 */
import type { Socket } from 'node:net';

const watchers = Symbol('shoal.disconnectWatchers');

type WatchedSocket = Socket & { [watchers]?: Set<() => void> };

function onClose(this: WatchedSocket): void {
  const set = this[watchers];
  if (!set) return;
  this[watchers] = undefined;
  for (const listener of set) listener();
}

/**
 * The disconnect hook of one request: `on(listener)` calls `listener` once if the connection
 * closes before `done()`; at once when it is already closed.
 */
export class DisconnectWatch {
  private readonly socket: WatchedSocket | undefined;
  private listeners: (() => void)[] | undefined;

  constructor(socket: Socket | null | undefined) {
    this.socket = socket ?? undefined;
  }

  on(listener: () => void): void {
    const socket = this.socket;
    if (!socket) return;
    if (socket.destroyed) {
      listener();
      return;
    }
    let set = socket[watchers];
    if (!set) {
      set = new Set();
      socket[watchers] = set;
      socket.once('close', onClose);
    }
    set.add(listener);
    if (this.listeners) this.listeners.push(listener);
    else this.listeners = [listener];
  }

  /** The request is answered: its listeners no longer apply. */
  done(): void {
    const listeners = this.listeners;
    if (!listeners) return;
    this.listeners = undefined;
    const set = this.socket?.[watchers];
    if (set) for (const l of listeners) set.delete(l);
  }
}
