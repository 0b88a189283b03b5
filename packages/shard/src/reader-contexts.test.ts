import { createIndexMapping, ShardEngine, type ShardReader } from '@shoal/engine';
import { isShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCounters } from './context-counters.ts';
import { ReaderContexts, recordScrollStep, SCROLL_STEPS_KEPT, scrollFrom } from './reader-contexts.ts';
import { ScrollWindow, scrollWindowBytes } from './scroll-window.ts';

const enc = new TextEncoder();

function shard() {
  const mapping = createIndexMapping({ properties: { n: { type: 'long' } } }, { indexName: 'i' });
  const engine = new ShardEngine({ index: 'i', indexUuid: 'u', shardId: 0, mapping });
  engine.write([{ op: 'index', id: 'a', source: enc.encode('{"n":1}'), create: false }]);
  engine.refresh();
  return engine;
}

function clock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const scrollState = { req: {} as never, spec: {}, total: 0, relation: 'eq' as const, floatingKeys: 0 };

function reasonOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isShoalError(e)) return `${e.status} ${e.type}: ${e.reason}`;
    throw e;
  }
  return 'no error';
}

describe('reader contexts', () => {
  it('expire on use and by the reaper, and say so afterwards', () => {
    const t = clock();
    const contexts = new ReaderContexts({ now: t.now, session: 'aa11' });
    const engine = shard();
    const pit = contexts.openPit('k', engine.acquireReader(), 1000);
    t.advance(600);
    expect(contexts.use('k', pit, 1000).kind).toBe('pit');
    t.advance(999);
    expect(contexts.use('k', pit).kind).toBe('pit');
    t.advance(1);
    expect(reasonOf(() => contexts.use('k', pit))).toBe(
      `404 search_context_missing_exception: No search context found for id [${pit.id}]: the context expired at ${new Date(t.now()).toISOString()}, [1s] after its last use`,
    );
    const other = contexts.openPit('k', engine.acquireReader(), 500);
    t.advance(501);
    contexts.reap();
    expect(contexts.size).toBe(0);
    expect(reasonOf(() => contexts.use('k', other))).toMatch(/: the context expired at/);
    contexts.close();
  });

  it('tell closed, unknown and foreign-session ids apart', () => {
    const contexts = new ReaderContexts({ session: 'bb22' });
    const engine = shard();
    const pit = contexts.openPit('k', engine.acquireReader(), 60_000);
    expect(contexts.freeRef('k', pit)).toBe(true);
    expect(contexts.freeRef('k', pit)).toBe(false);
    expect(reasonOf(() => contexts.use('k', pit))).toMatch(/: the context was closed at \d{4}-/);
    expect(reasonOf(() => contexts.use('k', { id: 999, session: 'bb22' }))).toBe(
      '404 search_context_missing_exception: No search context found for id [999]',
    );
    expect(reasonOf(() => contexts.use('k', { id: 1, session: 'cc33' }))).toMatch(
      /worker thread .* replaced/,
    );
    const again = contexts.openPit('k', engine.acquireReader(), 60_000);
    expect(reasonOf(() => contexts.use('other-shard', again))).toMatch(/^404/);
    contexts.releaseShard('k');
    expect(reasonOf(() => contexts.use('k', again))).toMatch(/when its shard was closed/);
    contexts.close();
  });

  it('count into the shared counters and enforce the scroll limit across threads', () => {
    const counters = ContextCounters.create(2);
    const a = new ReaderContexts({ session: 'a1' });
    const b = new ReaderContexts({ session: 'b2' });
    a.attach(counters.ref(0));
    b.attach(counters.ref(1));
    const engine = shard();
    const s1 = a.openScroll('k', engine.acquireReader(), 60_000, 2, scrollState);
    b.openScroll('k', engine.acquireReader(), 60_000, 2, scrollState);
    const reader = engine.acquireReader();
    expect(reasonOf(() => a.openScroll('k', reader, 60_000, 2, scrollState))).toBe(
      '429 too_many_scroll_contexts_exception: Trying to create too many scroll contexts. Must be less than or equal to: [2]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
    );
    reader.release();
    a.openPit('k', engine.acquireReader(), 60_000);
    expect(counters.totals()).toMatchObject({
      openContexts: 3,
      scrollCurrent: 2,
      pitCurrent: 1,
      scrollTotal: 0,
    });
    a.free(s1.id, 'closed');
    expect(counters.totals()).toMatchObject({ openContexts: 2, scrollCurrent: 1, scrollTotal: 1 });
    // A replacement thread on row 1 takes back what the dead one counted.
    const b2 = new ReaderContexts({ session: 'b3' });
    b2.attach(counters.ref(1));
    expect(counters.totals()).toMatchObject({ openContexts: 1, scrollCurrent: 0, pitCurrent: 1 });
    a.openScroll('k', engine.acquireReader(), 60_000, 2, scrollState);
    a.openScroll('k', engine.acquireReader(), 60_000, 2, scrollState);
    for (const c of [a, b, b2]) c.close();
  });

  it('keep the last few scroll positions, so a retried step finds its page', () => {
    const contexts = new ReaderContexts();
    const engine = shard();
    const ctx = contexts.openScroll('k', engine.acquireReader(), 60_000, 100, scrollState);
    const pos = (doc: number) => ({ values: [doc], doc });
    const returned = (step: number) => [pos(step * 10), pos(step * 10 + 1), pos(step * 10 + 2)];
    expect(scrollFrom(ctx, 0, 0)).toBeUndefined();
    for (let step = 0; step < 10; step++) {
      // Step 3 consumed none of this shard's hits: step 4 starts where step 3 did.
      const from = scrollFrom(ctx, step, step === 4 ? 0 : 2);
      if (step === 4) expect(from).toEqual(pos(21));
      recordScrollStep(ctx, step, from, returned(step));
    }
    // A retry of step 10 (with the id that named it) and of an older kept step.
    expect(scrollFrom(ctx, 10, 2)).toEqual(pos(91));
    expect(scrollFrom(ctx, 10 - SCROLL_STEPS_KEPT + 1, 1)).toEqual(pos(60));
    expect(() => scrollFrom(ctx, 10 - SCROLL_STEPS_KEPT, 2)).toThrow(/no longer kept/);
    expect(() => scrollFrom(ctx, 10, 4)).toThrow(/no longer kept/);
    contexts.close();
  });

  it('10,000 open/free cycles leave no context, a bounded tombstone list, and segments as they were', () => {
    const contexts = new ReaderContexts();
    const engine = shard();
    const probe: ShardReader = engine.acquireReader();
    const segment = probe.segments[0]!.segment;
    const refsBefore = segment.refCount;
    for (let i = 0; i < 10_000; i++) {
      const ref = contexts.openPit('k', engine.acquireReader(), 60_000);
      const scroll = contexts.openScroll('k', engine.acquireReader(), 60_000, 500, scrollState);
      contexts.freeRef('k', ref);
      contexts.free(scroll.id, 'closed');
      const transient = contexts.openTransient('k', engine.acquireReader());
      contexts.release(transient);
    }
    expect(contexts.size).toBe(0);
    expect(contexts.tombstoneCount).toBeLessThanOrEqual(4096);
    expect(segment.refCount).toBe(refsBefore);
    probe.release();
    contexts.close();
  });

  it('give a scroll window its memory back when the scroll is freed', () => {
    const contexts = new ReaderContexts();
    const engine = shard();
    const before = scrollWindowBytes();
    const ctx = contexts.openScroll('k', engine.acquireReader(), 60_000, 100, scrollState);
    const window = new ScrollWindow(
      'i',
      10,
      { source: { enabled: true, includes: [], excludes: [] } } as never,
      true,
      0,
    );
    ctx.scroll!.window = window;
    expect(scrollWindowBytes()).toBeGreaterThan(before);
    contexts.free(ctx.id, 'closed');
    expect(scrollWindowBytes()).toBe(before);
    // Disposing twice changes nothing.
    window.dispose();
    expect(scrollWindowBytes()).toBe(before);
    contexts.close();
  });
});
