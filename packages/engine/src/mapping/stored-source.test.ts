import { describe, expect, it } from 'vitest';
import { sourceKeeper } from './stored-source.ts';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('sourceKeeper', () => {
  it('keeps everything when the mapping says nothing or only enabled: true', () => {
    expect(sourceKeeper(undefined)).toBeUndefined();
    expect(sourceKeeper({ enabled: true })).toBeUndefined();
  });

  it('keeps no bytes when _source is disabled', () => {
    expect(sourceKeeper({ enabled: false })!(bytes({ a: 1 })).length).toBe(0);
    expect(sourceKeeper({ mode: 'disabled' })!(bytes({ a: 1 })).length).toBe(0);
  });

  it('filters by includes and excludes', () => {
    const keep = sourceKeeper({ includes: ['a', 'o.*'], excludes: ['o.x'] })!;
    expect(text(keep(bytes({ a: 1, b: 2, o: { x: 1, y: 2 } })))).toBe('{"a":1,"o":{"y":2}}');
  });
});
