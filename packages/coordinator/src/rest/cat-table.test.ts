import { describe, expect, it } from 'vitest';
import { type CatColumn, catResponse } from './cat-table.ts';

const columns: CatColumn[] = [
  { name: 'epoch', aliases: ['t'], desc: 'seconds', default: true, right: true },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name', default: true },
  { name: 'status', aliases: ['s'], desc: 'open/close', default: true },
  { name: 'store.size', aliases: ['ss'], desc: 'store size', default: true, right: true },
  { name: 'docs.count', aliases: ['dc'], desc: 'docs', default: false, right: true },
];
const rows = [
  { epoch: 1, index: 'b', status: 'open', 'store.size': '10kb', 'docs.count': 7 },
  { epoch: 1, index: 'a', status: 'close', 'store.size': '1kb', 'docs.count': 12 },
];
const req = (query: Record<string, string>, headers: Record<string, string> = {}) => ({ query, headers });

describe('catResponse', () => {
  it('expands h wildcards over names and aliases in table order, each column once', () => {
    const r = catResponse(req({ h: 'index,s*', format: 'json' }), columns, rows);
    expect(r.body).toEqual([
      { index: 'b', status: 'open', 'store.size': '10kb' },
      { index: 'a', status: 'close', 'store.size': '1kb' },
    ]);
  });

  it('shows a column under the alias it was asked by and skips unknown names', () => {
    const r = catResponse(req({ h: 'i,dc,nope', v: 'true' }), columns, rows);
    expect(r.text).toBe('i dc\nb  7\na 12\n');
  });

  it('answers JSON for an Accept of application/json, text otherwise', () => {
    const json = catResponse(req({ h: 'i' }, { accept: 'application/json' }), columns, rows);
    expect(json.body).toEqual([{ i: 'b' }, { i: 'a' }]);
    const text = catResponse(req({ h: 'i' }, { accept: '*/*' }), columns, rows);
    expect(text.text).toBe('b\na\n');
  });

  it('hides the timestamp columns with ts=false', () => {
    const r = catResponse(req({ ts: 'false', format: 'json' }), columns, rows.slice(0, 1));
    expect(Object.keys((r.body as Record<string, unknown>[])[0]!)).toEqual(['index', 'status', 'store.size']);
  });

  it('refuses output formats it cannot write, and unknown sort keys', () => {
    expect(() => catResponse(req({ format: 'smile' }), columns, rows)).toThrow(/not supported/);
    expect(() => catResponse(req({ s: 'nope' }), columns, rows)).toThrow(
      'Unable to sort by unknown sort key `nope`',
    );
  });
});
