import { describe, expect, it } from 'vitest';
import type { ShardWriteOp, ShardWriteOutcome, ShardWriteResult } from '../contract.ts';
import { ShardEngine } from './shard-engine.ts';
import { testMapping } from './test-mapping.test-support.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const json = (v: unknown) => enc.encode(JSON.stringify(v));
const mapping = testMapping({ title: { type: 'text' }, n: { type: 'long' }, obj: { type: 'object' } }, false);

function engine() {
  return new ShardEngine({ index: 'idx', indexUuid: 'uuid', shardId: 0, mapping });
}
const index = (id: string, doc: unknown, extra: Partial<ShardWriteOp> = {}): ShardWriteOp =>
  ({ op: 'index', id, source: json(doc), create: false, ...extra }) as ShardWriteOp;
const update = (id: string, doc: unknown, extra: Partial<ShardWriteOp> = {}): ShardWriteOp =>
  ({
    op: 'update',
    id,
    doc: json(doc),
    docAsUpsert: false,
    detectNoop: true,
    returnSource: false,
    ...extra,
  }) as ShardWriteOp;

function results(o: ShardWriteOutcome): ShardWriteResult[] {
  if (o.kind !== 'applied') throw new Error('expected applied');
  return o.results;
}
function one(e: ShardEngine, op: ShardWriteOp): ShardWriteResult {
  return results(e.write([op]))[0]!;
}

describe('ShardEngine writes', () => {
  it('assigns seq_no per shard and versions per doc', () => {
    const e = engine();
    const r = results(e.write([index('1', { n: 1 }), index('2', { n: 2 }), index('1', { n: 3 })]));
    expect(r.map((x) => [x.status, x.result, x.version, x.seqNo, x.primaryTerm])).toEqual([
      [201, 'created', 1, 0, 1],
      [201, 'created', 1, 1, 1],
      [200, 'updated', 2, 2, 1],
    ]);
    const d = one(e, { op: 'delete', id: '1' });
    expect([d.status, d.result, d.version, d.seqNo]).toEqual([200, 'deleted', 3, 3]);
    const again = one(e, index('1', { n: 4 }));
    expect([again.status, again.result, again.version]).toEqual([201, 'created', 4]);
    const missing = one(e, { op: 'delete', id: 'zz' });
    expect([missing.status, missing.result, missing.version, missing.seqNo]).toEqual([
      404,
      'not_found',
      1,
      5,
    ]);
    expect(one(e, index('zz', {})).version).toBe(2);
  });

  it('rejects create on an existing doc', () => {
    const e = engine();
    one(e, index('1', {}));
    const r = one(e, index('1', {}, { create: true } as Partial<ShardWriteOp>));
    expect(r.status).toBe(409);
    expect(r.error).toMatchObject({
      type: 'version_conflict_engine_exception',
      reason: '[1]: version conflict, document already exists (current version [1])',
      metadata: { index_uuid: 'uuid', shard: '0', index: 'idx' },
    });
  });

  it('checks if_seq_no / if_primary_term', () => {
    const e = engine();
    one(e, index('1', {}));
    one(e, index('1', {}));
    const bad = one(e, index('1', {}, { ifSeqNo: 0, ifPrimaryTerm: 1 }));
    expect(bad.error?.reason).toBe(
      '[1]: version conflict, required seqNo [0], primary term [1]. current document has seqNo [1] and primary term [1]',
    );
    const none = one(e, index('2', {}, { ifSeqNo: 5, ifPrimaryTerm: 1 }));
    expect(none.error?.reason).toBe(
      '[2]: version conflict, required seqNo [5], primary term [1]. but no document was found',
    );
    expect(one(e, index('1', { n: 1 }, { ifSeqNo: 1, ifPrimaryTerm: 1 })).result).toBe('updated');
  });

  it('supports external versioning', () => {
    const e = engine();
    expect(one(e, index('1', {}, { version: 5, versionType: 'external' })).version).toBe(5);
    const r = one(e, index('1', {}, { version: 5, versionType: 'external' }));
    expect(r.error?.reason).toBe(
      '[1]: version conflict, current version [5] is higher or equal to the one provided [5]',
    );
    expect(one(e, index('1', {}, { version: 5, versionType: 'external_gte' })).version).toBe(5);
    expect(one(e, index('1', {}, { version: 9, versionType: 'external' })).version).toBe(9);
  });

  it('updates by partial merge, detects noops, upserts', () => {
    const e = engine();
    one(e, index('1', { title: 'a', obj: { x: 1, y: [1, 2] }, n: 1 }));
    const u = one(
      e,
      update('1', { obj: { y: [3], z: true } }, { returnSource: true } as Partial<ShardWriteOp>),
    );
    expect([u.status, u.result, u.version, u.seqNo]).toEqual([200, 'updated', 2, 1]);
    expect(JSON.parse(dec.decode(u.source!))).toEqual({ title: 'a', obj: { x: 1, y: [3], z: true }, n: 1 });
    const noop = one(e, update('1', { obj: { x: 1 } }));
    expect([noop.status, noop.result, noop.version, noop.seqNo]).toEqual([200, 'noop', 2, 1]);
    const forced = one(e, update('1', { obj: { x: 1 } }, { detectNoop: false } as Partial<ShardWriteOp>));
    expect([forced.result, forced.version, forced.seqNo]).toEqual(['updated', 3, 2]);
    const missing = one(e, update('2', { n: 1 }));
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({
      type: 'document_missing_exception',
      reason: '[2]: document missing',
    });
    const upsert = one(e, update('2', { n: 1 }, { upsert: json({ n: 0 }) } as Partial<ShardWriteOp>));
    expect([upsert.status, upsert.result, upsert.version]).toEqual([201, 'created', 1]);
    expect(JSON.parse(dec.decode(e.get('2').source!))).toEqual({ n: 0 });
    one(e, update('3', { n: 7 }, { docAsUpsert: true } as Partial<ShardWriteOp>));
    expect(JSON.parse(dec.decode(e.get('3').source!))).toEqual({ n: 7 });
  });

  it('sees earlier ops of the same batch', () => {
    const e = engine();
    const r = results(e.write([index('1', { n: 1 }), update('1', { n: 2 }), { op: 'delete', id: '1' }]));
    expect(r.map((x) => x.result)).toEqual(['created', 'updated', 'deleted']);
    expect(e.get('1').found).toBe(false);
  });

  it('applies nothing when a document needs a mapping update', () => {
    const e = new ShardEngine({ index: 'i', indexUuid: 'u', shardId: 0, mapping: testMapping({}, true) });
    const o = e.write([index('1', { a: 'x' }), index('2', { b: 1 }), index('3', { a: 'y' })]);
    const text = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
    expect(o).toEqual({ kind: 'needs_mapping', update: { properties: { a: text, b: { type: 'long' } } } });
    expect(e.get('1').found).toBe(false);
    if (o.kind !== 'needs_mapping') throw new Error();
    e.setMapping(e.getMapping().merge(o.update));
    expect(results(e.write([index('1', { a: 'x' })]))[0]!.seqNo).toBe(0);
  });

  it('makes writes visible to realtime get at once and to search after refresh', () => {
    const e = engine();
    one(e, index('1', { n: 1 }, { routing: 'r' } as Partial<ShardWriteOp>));
    expect(e.get('1')).toMatchObject({ found: true, version: 1, seqNo: 0, routing: 'r' });
    expect(e.get('1', { realtime: false }).found).toBe(false);
    const before = e.acquireReader();
    expect(before.numDocs).toBe(0);
    expect(e.refresh()).toBe(true);
    expect(e.refresh()).toBe(false);
    expect(e.get('1', { realtime: false }).found).toBe(true);
    const after = e.acquireReader();
    expect(after.numDocs).toBe(1);
    one(e, { op: 'delete', id: '1' });
    expect(e.get('1').found).toBe(false);
    expect(e.acquireReader().numDocs).toBe(1);
    e.refresh();
    const latest = e.acquireReader();
    expect(latest.numDocs).toBe(0);
    // The reader taken before the delete still sees the doc.
    expect(after.segments[0]!.liveDocs.isLive(0)).toBe(true);
    expect(latest.segments.length).toBe(0);
    for (const r of [before, after, latest]) r.release();
  });

  it('keeps segments alive for held readers and frees them on release', () => {
    const e = engine();
    for (let i = 0; i < 5; i++) one(e, index(String(i), { n: i }));
    e.refresh();
    const held = e.acquireReader();
    const seg = held.segments[0]!.segment;
    one(e, index('5', { n: 5 }));
    one(e, { op: 'delete', id: '0' });
    expect(e.forceMerge(1)).toBe(true);
    expect(e.docsStats()).toMatchObject({ count: 5, deleted: 0, segments: 1 });
    expect(seg.refCount).toBe(1);
    expect(held.segments[0]!.liveDocs.numLive).toBe(5);
    expect(dec.decode(seg.source(0))).toBe('{"n":0}');
    held.release();
    held.release();
    expect(seg.refCount).toBe(0);
    expect(e.get('0').found).toBe(false);
    expect(e.get('5').version).toBe(1);
    one(e, index('3', { n: 33 }));
    expect(e.get('3').version).toBe(2);
  });

  it('reports docs stats from the published reader and merges in the background', () => {
    const e = engine();
    for (let i = 0; i < 12; i++) {
      one(e, index(String(i), { n: i }));
      e.refresh();
    }
    one(e, { op: 'delete', id: '3' });
    e.refresh();
    expect(e.docsStats()).toMatchObject({ count: 11, segments: 11 });
    expect(e.maybeMerge()).toBe(true);
    expect(e.docsStats().segments).toBe(2);
    expect(e.docsStats().count).toBe(11);
    expect(e.maybeMerge()).toBe(false);
  });
});

describe('scripted updates', () => {
  const scripted = (id: string, source: string, extra: Partial<ShardWriteOp> = {}): ShardWriteOp =>
    ({
      op: 'update',
      id,
      docAsUpsert: false,
      detectNoop: true,
      returnSource: false,
      script: { source, params: { by: 2 } },
      ...extra,
    }) as ShardWriteOp;
  const sourceOf = (e: ShardEngine, id: string) => JSON.parse(dec.decode(e.get(id).source!));

  it('rewrites, skips (noop) or deletes as the script says, in the batch order', () => {
    const e = engine();
    const r = results(
      e.write([
        index('1', { n: 1 }),
        scripted('1', 'ctx._source.n += params.by'),
        scripted('1', "ctx.op = 'noop'"),
        scripted('1', "if (ctx._version == 2) { ctx.op = 'delete' }"),
      ]),
    );
    expect(r.map((x) => [x.result, x.version])).toEqual([
      ['created', 1],
      ['updated', 2],
      ['noop', 2],
      ['deleted', 3],
    ]);
    expect(e.get('1').found).toBe(false);
  });

  it('upserts the upsert document, or runs the script on it with scripted_upsert', () => {
    const e = engine();
    one(e, scripted('1', 'ctx._source.n = 10', { upsert: json({ n: 1 }) } as Partial<ShardWriteOp>));
    expect(sourceOf(e, '1')).toEqual({ n: 1 });
    one(
      e,
      scripted('2', 'ctx._source.n *= params.by', {
        upsert: json({ n: 4 }),
        scriptedUpsert: true,
      } as Partial<ShardWriteOp>),
    );
    expect(sourceOf(e, '2')).toEqual({ n: 8 });
    const skipped = one(
      e,
      scripted('3', "ctx.op = 'noop'", { upsert: json({}), scriptedUpsert: true } as Partial<ShardWriteOp>),
    );
    expect(skipped.result).toBe('noop');
    expect(e.get('3').found).toBe(false);
  });

  it('fails one item with illegal_argument_exception caused by the script_exception', () => {
    const e = engine();
    one(e, index('1', { n: 1 }));
    const r = one(e, scripted('1', 'ctx._source.n = ctx._source.missing.length()'));
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'failed to execute script',
      causedBy: { type: 'script_exception', reason: 'runtime error' },
    });
    expect(sourceOf(e, '1')).toEqual({ n: 1 });
  });
});
