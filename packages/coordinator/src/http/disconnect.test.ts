import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DisconnectWatch } from './disconnect.ts';

/** A connection the test closes by emitting its 'close' event. */
function closableConnection(): Socket & { destroyed: boolean } {
  const s = new EventEmitter() as unknown as Socket & { destroyed: boolean };
  s.destroyed = false;
  return s;
}

describe('DisconnectWatch', () => {
  it('tells the requests in flight when their connection closes, once', () => {
    const socket = closableConnection();
    const a = new DisconnectWatch(socket);
    const b = new DisconnectWatch(socket);
    const calls: string[] = [];
    a.on(() => calls.push('a'));
    b.on(() => calls.push('b'));
    socket.emit('close');
    socket.emit('close');
    expect(calls).toEqual(['a', 'b']);
  });

  it('forgets a request once it is done, and keeps one close listener per connection', () => {
    const socket = closableConnection();
    const calls: string[] = [];
    for (let i = 0; i < 5; i++) {
      const w = new DisconnectWatch(socket);
      w.on(() => calls.push(`done ${i}`));
      w.done();
    }
    const live = new DisconnectWatch(socket);
    live.on(() => calls.push('live'));
    expect(socket.listenerCount('close')).toBe(1);
    socket.emit('close');
    expect(calls).toEqual(['live']);
  });

  it('calls at once when the connection is already gone, and never without a connection', () => {
    const socket = closableConnection();
    socket.destroyed = true;
    let called = 0;
    new DisconnectWatch(socket).on(() => called++);
    new DisconnectWatch(undefined).on(() => called++);
    expect(called).toBe(1);
  });
});
