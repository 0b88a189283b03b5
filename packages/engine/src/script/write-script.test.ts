import { describe, expect, it } from 'vitest';
import { runWriteScript, sourceBytes } from './write-script.ts';

const doc = () => ({
  index: 'books',
  id: '1',
  version: 3,
  routing: null,
  now: 1_700_000_000_000,
  source: { title: 'Dune', tags: ['sf'], stock: { count: 2 } } as Record<string, unknown>,
});

function json(bytes: Uint8Array): unknown {
  return JSON.parse(new TextDecoder().decode(bytes));
}

function failure(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    return e as { type: string; reason: string; causedBy?: { type: string; reason: string } };
  }
  throw new Error('no failure');
}

describe('write scripts: ctx', () => {
  it('reads and rewrites _source: nested maps, lists, put/remove/containsKey', () => {
    const ctx = runWriteScript(
      'update',
      {
        source: `ctx._source.stock.count += params.n;
          ctx._source.tags.add('classic');
          ctx._source.put('author', 'Herbert');
          if (ctx._source.containsKey('title')) { ctx._source.remove('title') }
          ctx._source.meta = ['version': ctx._version, 'id': ctx._id, 'index': ctx._index, 'now': ctx._now > 0];`,
        params: { n: 5 },
      },
      doc(),
    );
    expect(ctx.op).toBe('index');
    expect(json(sourceBytes(ctx.source))).toEqual({
      tags: ['sf', 'classic'],
      stock: { count: 7 },
      author: 'Herbert',
      meta: { version: 3, id: '1', index: 'books', now: true },
    });
  });

  it('lets an update choose noop (also as the legacy none) or delete, nothing else', () => {
    expect(runWriteScript('update', { source: "ctx.op = 'none'", params: {} }, doc()).op).toBe('noop');
    expect(runWriteScript('update', { source: "ctx.op = 'delete'", params: {} }, doc()).op).toBe('delete');
    const e = failure(() => runWriteScript('update', { source: "ctx.op = 'junk'", params: {} }, doc()));
    expect(e.type).toBe('script_exception');
    expect(e.causedBy).toMatchObject({
      type: 'illegal_argument_exception',
      reason: '[op] must be one of delete, index, noop, not [junk]',
    });
  });

  it('refuses unknown keys and metadata an update may not change', () => {
    expect(
      failure(() => runWriteScript('update_by_query', { source: "ctx.junk = 'stuff'", params: {} }, doc()))
        .causedBy?.reason,
    ).toBe('Cannot put key [junk] with value [stuff] into ctx');
    expect(
      failure(() => runWriteScript('update_by_query', { source: "ctx._id = 'x'", params: {} }, doc()))
        .causedBy?.reason,
    ).toBe('_id cannot be updated');
  });

  it('lets a reindex change _index, _id, _routing and _version', () => {
    const ctx = runWriteScript(
      'reindex',
      { source: "ctx._index = 'other'; ctx._id = null; ctx._routing = 'r'; ctx._version = null", params: {} },
      doc(),
    );
    expect([ctx.meta('_index'), ctx.meta('_id'), ctx.meta('_routing'), ctx.meta('_version')]).toEqual([
      'other',
      null,
      'r',
      null,
    ]);
  });

  it('starts a scripted upsert as create, which may become noop only', () => {
    expect(runWriteScript('upsert', { source: 'ctx.op', params: {} }, doc()).op).toBe('create');
    const e = failure(() => runWriteScript('upsert', { source: "ctx.op = 'index'", params: {} }, doc()));
    expect(e.causedBy?.reason).toBe('[op] must be one of create, noop, not [index]');
  });

  it('refuses a _source that contains itself, and never writes a prototype', () => {
    const ctx = runWriteScript('update', { source: 'ctx._source.ctx = ctx', params: {} }, doc());
    expect(failure(() => sourceBytes(ctx.source))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Iterable object is self-referencing itself',
    });
    const c2 = runWriteScript(
      'update',
      { source: "ctx._source['__proto__'] = ['polluted': true]", params: {} },
      doc(),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(json(sourceBytes(c2.source))).toMatchObject({ ['__proto__']: { polluted: true } });
  });
});
