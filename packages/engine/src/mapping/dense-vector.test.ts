import { describe, expect, it } from 'vitest';
import type { VectorFieldSpec } from '../contract.ts';
import { decodeVectorInto, encodeVector, vectorTerm } from './dense-vector.ts';

const spec = (
  similarity: VectorFieldSpec['similarity'],
  elementType: VectorFieldSpec['elementType'] = 'float',
) => ({
  dims: 3,
  similarity,
  elementType,
});

describe('dense_vector values', () => {
  it('round-trips floats through float32 and bytes through int8', () => {
    const out = new Float32Array(6);
    decodeVectorInto(encodeVector([0.1, -2.5, 3], 'float'), 'float', out, 0);
    decodeVectorInto(encodeVector([-128, 0, 127], 'byte'), 'byte', out, 3);
    expect(Array.from(out)).toEqual([Math.fround(0.1), -2.5, 3, -128, 0, 127]);
  });

  it('refuses what Elasticsearch refuses', () => {
    expect(() => vectorTerm('v', spec('l2_norm'), [1, 2], '7')).toThrow(
      "The [dense_vector] field [v] in doc [document with id '7'] has a different number of dimensions [2] than defined in the mapping [3]",
    );
    expect(() => vectorTerm('v', spec('cosine'), [0, 0, 0], '1')).toThrow(/zero magnitude/);
    expect(() => vectorTerm('v', spec('dot_product'), [1, 1, 0], '1')).toThrow(/unit-length vectors/);
    expect(vectorTerm('v', spec('dot_product'), [0.6, 0.8, 0], '1')).toBe(
      encodeVector([0.6, 0.8, 0], 'float'),
    );
    expect(() => vectorTerm('v', spec('l2_norm', 'byte'), [1, 2.5, 3], '1')).toThrow(
      /integers between \[-128, 127\]/,
    );
    expect(() => vectorTerm('v', spec('l2_norm', 'byte'), [1, 200, 3], '1')).toThrow(/integers between/);
    expect(() => vectorTerm('v', spec('l2_norm'), 'abc', '1')).toThrow(/START_ARRAY/);
    expect(vectorTerm('v', spec('l2_norm', 'byte'), '7f80ff', '1')).toBe(
      encodeVector([127, -128, -1], 'byte'),
    );
  });
});
