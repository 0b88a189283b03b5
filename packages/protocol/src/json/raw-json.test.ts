import { describe, expect, it } from 'vitest';
import { RawJson, withRawMarkers } from './raw-json.ts';

describe('RawJson', () => {
  it('decodes bytes once and parses exactly', () => {
    const r = new RawJson(new TextEncoder().encode('{"n":18446744073709551615,"s":"é"}'));
    expect(r.text).toBe('{"n":18446744073709551615,"s":"é"}');
    expect(r.parse()).toEqual({ n: 18446744073709551615n, s: 'é' });
  });

  it('writes placeholders only inside stringifyJson', () => {
    const r = new RawJson('[1]');
    const { result, raws } = withRawMarkers(() => r.toJSON());
    expect(result).toBe('\u0000R0');
    expect(raws).toEqual(['[1]']);
    expect(r.toJSON()).toEqual([1]);
  });
});
