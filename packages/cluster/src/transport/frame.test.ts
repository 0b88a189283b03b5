import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameError } from './frame.ts';

describe('frames', () => {
  it('decodes frames split at any byte and several in one chunk', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const a = encodeFrame({ k: 'msg', action: 'x', body: { n: 1, raw: bytes } });
    const b = encodeFrame({ k: 'req', id: 7, action: 'y', body: 'hello' });
    const all = Buffer.concat([a, b]);
    for (let cut = 0; cut <= all.length; cut++) {
      const d = new FrameDecoder();
      const out = [...d.push(all.subarray(0, cut)), ...d.push(all.subarray(cut))];
      expect(out).toHaveLength(2);
      const first = out[0] as { body: { raw: Uint8Array } };
      // Bytes stay bytes: no base64, no JSON.
      expect(Buffer.from(first.body.raw).equals(bytes)).toBe(true);
      expect(out[1]).toEqual({ k: 'req', id: 7, action: 'y', body: 'hello' });
    }
  });

  it('refuses a length beyond the limit', () => {
    const d = new FrameDecoder();
    expect(() => d.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0]))).toThrow(FrameError);
  });
});
