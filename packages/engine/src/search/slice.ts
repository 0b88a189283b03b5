/**
 * A slice inside one shard (SliceBuilder.createSliceQuery, paging.md §5.3): doc `d` is in
 * slice `id` of `max` when `floorMod(hash(d), max) == id`, where the hash is
 * - murmur3_x86_32 (seed 7919) of the indexed `_id` bytes (TermsSliceQuery): a scroll, or
 *   `field: "_id"` on a scroll;
 * - BitMixer.mix of the doc's first numeric doc value, 0 when it has none (DocValuesSliceQuery;
 *   Elasticsearch tests every value of a multi-valued doc, which would put it in several
 *   slices — Shoal uses the first so the slices stay disjoint);
 * or, for a PIT without `field`, contiguous doc-id ranges of the reader (DocIdSliceQuery).
 * The filter is computed once per reader and slice and cached with the reader, and its bytes
 * (hashes and bitsets) are counted (`sliceFilterBytes`).
 */
import { illegalArgument, murmur3x86_32 } from '@shoal/protocol';
import type { IndexMapping, ShardSlice } from '../contract.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { halfFloatBits } from '../mapping/number-values.ts';
import { type DocFilter, EMPTY_FILTER, liveDocsFilter, predicateFilter } from './doc-filter.ts';
import { NUMERIC_TYPES as FIELD_NUMBER_TYPES } from './field-values.ts';
import { encodeId } from './uid.ts';

const TERMS_SLICE_SEED = 7919;
/** Fields whose doc values are numbers: numbers, dates and booleans. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set([...FIELD_NUMBER_TYPES, 'boolean']);

interface SliceMemory {
  bytes: number;
}

function memory(reader: ShardReader): SliceMemory {
  return reader.cached<SliceMemory>('slice:memory', () => ({ bytes: 0 }));
}

/** Bytes held by the slice filters (and the hashes behind them) cached on this reader. */
export function sliceFilterBytes(reader: ShardReader): number {
  return memory(reader).bytes;
}

/** Errors #35–#37, checked on every shard that a sliced search reaches. */
function checkField(slice: ShardSlice, mapping: IndexMapping): void {
  const f = slice.field;
  if (f === undefined) return;
  if (f === '_id') {
    if (slice.context === 'pit') throw illegalArgument('cannot slice on [_id] when using [point-in-time]');
    return;
  }
  const field = mapping.field(f);
  if (!field) throw illegalArgument(`field ${f} not found`);
  if (!NUMERIC_TYPES.has(field.type) || !field.docValues) {
    throw illegalArgument(`cannot load numeric doc values on ${f}`);
  }
}

export function sliceFilter(reader: ShardReader, mapping: IndexMapping, slice: ShardSlice): DocFilter {
  checkField(slice, mapping);
  if (slice.max === 0) return EMPTY_FILTER;
  if (slice.max === 1) return liveDocsFilter(reader);
  const { id, max } = slice;
  const byField = slice.field !== undefined && slice.field !== '_id';
  const byDocId = slice.field === undefined && slice.context === 'pit';
  const key = `slice:${byDocId ? 'docid' : byField ? `field:${slice.field}` : '_id'}:${id}:${max}`;
  return reader.cached(key, () => {
    let inSlice: (doc: number) => boolean;
    if (byDocId) {
      const q = Math.floor(reader.maxDoc / max);
      const r = reader.maxDoc % max;
      const start = id < r ? (q + 1) * id : r * (q + 1) + (id - r) * q;
      const size = id < r ? q + 1 : q;
      inSlice = (doc) => doc >= start && doc < start + size;
    } else {
      const hashes = byField
        ? fieldHashes(reader, slice.field!, mapping.field(slice.field!)?.scalingFactor)
        : idHashes(reader);
      inSlice = (doc) => floorMod(hashes[doc]!, max) === id;
    }
    const filter = predicateFilter(reader, inSlice);
    memory(reader).bytes += filter.bytes;
    return filter;
  });
}

function floorMod(x: number, m: number): number {
  return ((x % m) + m) % m;
}

/** TermsSliceQuery's hash of every doc's `_id`, by reader doc. */
function idHashes(reader: ShardReader): Int32Array {
  return reader.cached('slice:hash:_id', () => {
    const out = new Int32Array(reader.maxDoc);
    for (const rs of reader.segments) {
      const ids = rs.segment.stored.ids;
      for (let d = 0; d < ids.length; d++) {
        out[rs.docBase + d] = murmur3x86_32(encodeId(ids[d]!), TERMS_SLICE_SEED);
      }
    }
    memory(reader).bytes += out.byteLength;
    return out;
  });
}

/** DocValuesSliceQuery's hash of every doc's first value of `field` (0 without one). */
function fieldHashes(reader: ShardReader, field: string, scalingFactor?: number): Int32Array {
  return reader.cached(`slice:hash:field:${field}`, () => {
    const out = new Int32Array(reader.maxDoc);
    for (const rs of reader.segments) {
      const sf = rs.segment.field(field);
      const n = sf?.numeric;
      if (n) {
        for (let d = 0; d < rs.segment.maxDoc; d++) {
          const s = n.starts[d]!;
          if (s === n.starts[d + 1]) continue;
          const raw = n.kind === 'long' ? n.values[s]! : sortableBits(n.values[s]!, sf.type, scalingFactor);
          out[rs.docBase + d] = mix(raw);
        }
      } else if (sf?.sortedSet) {
        // booleans: doc values 0 / 1 (`T` / `F` terms).
        const ss = sf.sortedSet;
        for (let d = 0; d < rs.segment.maxDoc; d++) {
          const s = ss.starts[d]!;
          if (s === ss.starts[d + 1]) continue;
          const t = ss.terms[ss.ords[s]!];
          out[rs.docBase + d] = mix(t === 'T' || t === 'true' ? 1n : 0n);
        }
      }
    }
    memory(reader).bytes += out.byteLength;
    return out;
  });
}

const F64 = new Float64Array(1);
const I64 = new BigInt64Array(F64.buffer);
const F32 = new Float32Array(1);
const I32 = new Int32Array(F32.buffer);

/**
 * The long Lucene stores for a doc value: integers as themselves, doubles and floats as
 * NumericUtils.doubleToSortableLong / floatToSortableInt.
 */
function sortableBits(v: number, type: string, scalingFactor?: number): bigint {
  // A scaled_float's doc value is its scaled long.
  if (type === 'scaled_float') return BigInt(Math.round(v * (scalingFactor ?? 1)));
  if (type === 'double') {
    F64[0] = v;
    const bits = I64[0]!;
    return bits ^ ((bits >> 63n) & 0x7fffffffffffffffn);
  }
  if (type === 'float') {
    F32[0] = v;
    const bits = I32[0]!;
    return BigInt(bits ^ ((bits >> 31) & 0x7fffffff));
  }
  if (type === 'half_float') {
    // HalfFloatPoint.halfFloatToSortableShort, as a signed 16-bit value.
    const bits = (halfFloatBits(v) << 16) >> 16;
    return BigInt(bits ^ ((bits >> 15) & 0x7fff));
  }
  return BigInt(Math.trunc(v));
}

const C1 = 0x4cd6944c5cc20b6dn;
const C2 = 0xfc12c5b19d3259e9n;

/** hppc BitMixer.mix(long): the low 32 bits of mix64, as a signed int. */
export function mix(v: bigint): number {
  let z = BigInt.asUintN(64, v);
  z = BigInt.asUintN(64, (z ^ (z >> 32n)) * C1);
  z = BigInt.asUintN(64, (z ^ (z >> 29n)) * C2);
  z ^= z >> 32n;
  return Number(BigInt.asIntN(32, z));
}
