/**
 * The `dense_vector` field type (DenseVectorFieldMapper): a fixed number of `dims` floats (or
 * bytes with `element_type: byte`) per document, compared by a `similarity`. The index keeps
 * each vector as one doc-values term, its little-endian bytes in base64 (a vector is never
 * searched by term), and the knn query decodes a segment's vectors once into one array
 * (search/knn.ts). Searches are exact: every candidate vector is compared, where Elasticsearch
 * walks an HNSW graph; `index_options` are accepted and kept, and change nothing.
 */
import { illegalArgument, mapperParsing, notImplemented } from '@shoal/protocol';
import type { VectorFieldSpec } from '../contract.ts';
import { javaToString } from './java-text.ts';
import { bool, meta, type ParamSpec, parseInt32, str } from './params.ts';

export type VectorSimilarity = VectorFieldSpec['similarity'];
export type VectorElementType = VectorFieldSpec['elementType'];

export const VECTOR_SIMILARITIES: readonly VectorSimilarity[] = [
  'l2_norm',
  'dot_product',
  'cosine',
  'max_inner_product',
];

/** DenseVectorFieldMapper.MAX_DIMS_COUNT. */
export const MAX_DIMS = 4096;

const INDEX_OPTION_TYPES = [
  'hnsw',
  'int8_hnsw',
  'int4_hnsw',
  'bbq_hnsw',
  'flat',
  'int8_flat',
  'int4_flat',
  'bbq_flat',
];

const dims: ParamSpec = {
  name: 'dims',
  defaultValue: () => undefined,
  updatable: (prev, next) => prev === undefined || prev === next,
  parse: (v) => {
    const n = parseInt32(v);
    if (n < 1 || n > MAX_DIMS) {
      throw mapperParsing(`The number of dimensions should be in the range [1, ${MAX_DIMS}] but was [${n}]`);
    }
    return n;
  },
};

const elementType: ParamSpec = {
  name: 'element_type',
  defaultValue: () => 'float',
  updatable: false,
  parse: (v) => {
    const s = str(v);
    if (s === 'bit') throw notImplemented('dense_vector fields with [element_type: bit]');
    if (s !== 'float' && s !== 'byte') {
      throw mapperParsing(`invalid element_type [${s}]; available types are [byte, bit, float]`);
    }
    return s;
  },
};

const similarity: ParamSpec = {
  name: 'similarity',
  // Cosine for an indexed field (the default index is true); none when not indexed.
  defaultValue: (params) => (params.index === false ? undefined : 'cosine'),
  updatable: false,
  acceptsNull: true,
  alwaysPrintIfSet: true,
  parse: (v) => {
    const s = str(v);
    if (!(VECTOR_SIMILARITIES as readonly string[]).includes(s)) {
      throw mapperParsing(
        `Unknown value [${s}] for field [similarity] - accepted values are [${VECTOR_SIMILARITIES.join(', ')}]`,
      );
    }
    return s;
  },
};

const indexOptions: ParamSpec = {
  name: 'index_options',
  defaultValue: () => undefined,
  updatable: true,
  parse: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw mapperParsing(
        `Failed to parse mapping: [index_options] must be an object, got [${javaToString(v)}]`,
      );
    }
    const o = v as Record<string, unknown>;
    if (o.type === undefined) throw mapperParsing('[index_options] requires field [type] to be configured');
    const type = str(o.type);
    if (!INDEX_OPTION_TYPES.includes(type))
      throw mapperParsing(`Unknown vector index options type [${type}]`);
    return o;
  },
};

export const DENSE_VECTOR_PARAMS: ParamSpec[] = [
  elementType,
  dims,
  bool('index', true, false, true),
  similarity,
  indexOptions,
  meta,
];

/** Checks that need the whole field definition. */
export function validateDenseVector(name: string, params: Record<string, unknown>): void {
  if (params.dims === undefined) {
    throw notImplemented(`a dense_vector field without [dims] (field [${name}]; Shoal does not infer them)`);
  }
  if (params.index === false && params.similarity !== undefined && params.similarity !== null) {
    throw mapperParsing(
      `Field [index] must be set to [true] in order to set [similarity] on field [${name}]`,
    );
  }
  const opts = params.index_options as Record<string, unknown> | undefined;
  if (opts && params.index === false) {
    throw mapperParsing(
      `Field [index] must be set to [true] in order to set [index_options] on field [${name}]`,
    );
  }
}

/** The query side's view of a mapped vector field. */
export function vectorSpec(params: Record<string, unknown>): VectorFieldSpec {
  return {
    dims: params.dims as number,
    elementType: (params.element_type as VectorElementType | undefined) ?? 'float',
    // A field mapped without a similarity compares as Elasticsearch's exact search does by default.
    similarity: (params.similarity as VectorSimilarity | undefined) ?? 'cosine',
  };
}

/**
 * A document's vector as its doc-values term, after Elasticsearch's checks: the number of
 * dimensions, finite numbers, whole numbers in [-128, 127] for bytes, no zero vector under
 * cosine, unit length under dot_product (floats).
 */
export function vectorTerm(path: string, spec: VectorFieldSpec, value: unknown, id: string): string {
  const values = vectorValues(path, spec, value, id);
  if (spec.similarity === 'cosine' || spec.similarity === 'dot_product') {
    let sq = 0;
    for (const x of values) sq += x * x;
    if (spec.similarity === 'cosine' && sq === 0) {
      throw illegalArgument(
        `The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: ${preview(values)}`,
      );
    }
    if (
      spec.similarity === 'dot_product' &&
      spec.elementType === 'float' &&
      Math.abs(Math.sqrt(sq) - 1) > 1e-4
    ) {
      throw illegalArgument(
        `The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: ${preview(values)}`,
      );
    }
  }
  return encodeVector(values, spec.elementType);
}

function vectorValues(path: string, spec: VectorFieldSpec, value: unknown, id: string): number[] {
  if (typeof value === 'string' && spec.elementType === 'byte' && /^[0-9a-fA-F]*$/.test(value)) {
    const out: number[] = [];
    for (let i = 0; i + 1 < value.length; i += 2)
      out.push((Number.parseInt(value.slice(i, i + 2), 16) << 24) >> 24);
    return checkDims(path, spec, out, id);
  }
  if (!Array.isArray(value)) {
    throw illegalArgument(
      `Failed to parse object: expecting token of type [START_ARRAY] but found [${tokenName(value)}]`,
    );
  }
  const out: number[] = [];
  for (const x of value) {
    const n = typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : Number.NaN;
    if (!Number.isFinite(n)) {
      throw illegalArgument(
        `[dense_vector] field [${path}] of doc has a non-numeric or non-finite value [${javaToString(x)}]`,
      );
    }
    if (spec.elementType === 'byte' && (!Number.isInteger(n) || n < -128 || n > 127)) {
      throw illegalArgument(
        `element_type [byte] vectors only support integers between [-128, 127] but found [${javaToString(x)}] at dim [${out.length}]; Preview of invalid vector: ${preview(value as number[])}`,
      );
    }
    out.push(n);
  }
  return checkDims(path, spec, out, id);
}

function checkDims(path: string, spec: VectorFieldSpec, values: number[], id: string): number[] {
  if (values.length !== spec.dims) {
    throw illegalArgument(
      `The [dense_vector] field [${path}] in doc [document with id '${id}'] has a different number of dimensions [${values.length}] than defined in the mapping [${spec.dims}]`,
    );
  }
  return values;
}

function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'START_OBJECT';
}

function preview(values: readonly number[]): string {
  return `[${values.slice(0, 10).join(', ')}${values.length > 10 ? ', ...' : ''}]`;
}

/** The doc-values term of a vector: its float32 (or int8) little-endian bytes in base64. */
export function encodeVector(values: readonly number[], type: VectorElementType): string {
  if (type === 'byte') return Buffer.from(Int8Array.from(values).buffer).toString('base64');
  const f = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) f[i] = values[i]!;
  return Buffer.from(f.buffer).toString('base64');
}

/** Writes the vector a term holds into `out` at `at` (as floats, bytes widened). */
export function decodeVectorInto(term: string, type: VectorElementType, out: Float32Array, at: number): void {
  const bytes = Buffer.from(term, 'base64');
  if (type === 'byte') {
    for (let i = 0; i < bytes.length; i++) out[at + i] = (bytes[i]! << 24) >> 24;
    return;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < bytes.length >>> 2; i++) out[at + i] = view.getFloat32(i * 4, true);
}
