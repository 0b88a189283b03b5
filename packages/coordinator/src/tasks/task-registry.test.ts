import { describe, expect, it } from 'vitest';
import { parseTaskId, TaskRegistry } from './task-registry.ts';

describe('TaskRegistry', () => {
  it('numbers tasks per node, lists them by action pattern and parent, and forgets them when done', () => {
    const r = new TaskRegistry('node1');
    const parent = r.register({ action: 'indices:data/write/reindex', cancellable: true });
    const child = r.register({ action: 'indices:data/write/reindex', cancellable: true, parent });
    const search = r.register({ action: 'indices:data/read/search', cancellable: true });
    expect([parent.taskId, child.taskId, search.taskId]).toEqual(['node1:1', 'node1:2', 'node1:3']);
    expect(r.list({ actions: ['*search*'] })).toEqual([search]);
    expect(r.list({ actions: ['indices:data/write/*'] })).toEqual([parent, child]);
    expect(r.list({ parentTaskId: 'node1:1' })).toEqual([child]);
    r.unregister(child);
    expect([...parent.children]).toEqual([]);
    r.numberAfter(41);
    expect(r.register({ action: 'x', cancellable: false }).id).toBe(42);
  });

  it('cancelling a task cancels its children, once, and late listeners hear of it at once', () => {
    const r = new TaskRegistry('n');
    const parent = r.register({ action: 'a', cancellable: true });
    const child = r.register({ action: 'a', cancellable: true, parent });
    const heard: string[] = [];
    child.onCancel(() => heard.push('child'));
    parent.cancel('by user request');
    parent.cancel('again');
    expect(heard).toEqual(['child']);
    expect(child.cancelledReason).toBe('parent task was cancelled [by user request]');
    parent.onCancel(() => heard.push('late'));
    expect(heard).toEqual(['child', 'late']);
    // A child registered under a cancelled parent starts cancelled.
    expect(r.register({ action: 'a', cancellable: true, parent }).cancelled).toBe(true);
  });

  it('finished() resolves when the task ends, or at once when it is not running', async () => {
    const r = new TaskRegistry('n');
    const t = r.register({ action: 'a', cancellable: false });
    let done = false;
    const waiting = r.finished(t.id).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    r.unregister(t);
    await waiting;
    expect(done).toBe(true);
    await r.finished(999);
  });

  it('task ids parse as Elasticsearch parses them', () => {
    expect(parseTaskId('abc:12')).toEqual({ node: 'abc', id: 12 });
    expect(parseTaskId('a:b:3')).toEqual({ node: 'a:b', id: 3 });
    for (const bad of ['foo', ':1', 'n:', 'n:x', 'n:1.5'])
      expect(() => parseTaskId(bad)).toThrow(`malformed task id ${bad}`);
  });
});
