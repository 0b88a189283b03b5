/**
 * `doc` for scripts: the current document's doc values in one segment, per field as
 * Elasticsearch's ScriptDocValues give them — longs and doubles as numbers, dates as dates,
 * booleans, keywords and ips as their values, geo points as points. A field with no doc values
 * (text without fielddata) or no mapping fails as it does in Elasticsearch.
 */
import type { IndexMapping, VectorFieldSpec } from '../contract.ts';
import type { SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { decodeVectorInto } from '../mapping/dense-vector.ts';
import { ScriptRuntimeError } from './script-error.ts';
import { DateValue, DocField, type DocFieldKind, type DocLookup, GeoPointValue } from './values.ts';

function illegalArgument(reason: string): ScriptRuntimeError {
  return new ScriptRuntimeError('illegal_argument_exception', reason);
}

const LONG_TYPES = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);

/** Refills the field's DocField with the values of `doc` (once per doc). */
type Reader = (doc: number) => DocField;

export class SegmentDocLookup implements DocLookup {
  private rs: ReaderSegment | null = null;
  private readers = new Map<string, Reader>();
  doc = -1;

  constructor(
    private readonly mapping: IndexMapping,
    private readonly index: string,
  ) {}

  setSegment(rs: ReaderSegment): void {
    this.rs = rs;
    this.readers.clear();
    this.doc = -1;
  }

  setDoc(doc: number): void {
    this.doc = doc;
  }

  has(field: string): boolean {
    return this.mapping.field(field) !== undefined;
  }

  get(field: string): DocField {
    let r = this.readers.get(field);
    if (r === undefined) {
      r = this.reader(field);
      this.readers.set(field, r);
    }
    return r(this.doc);
  }

  private reader(path: string): Reader {
    const field = this.mapping.field(path);
    if (!field) throw illegalArgument(`No field found for [${path}] in mapping`);
    if (field.type === 'text' || !field.docValues) {
      throw illegalArgument(
        field.type === 'text'
          ? `Fielddata is disabled on [${path}] in [${this.index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${path}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`
          : `Can't load fielddata on [${path}] because fielddata is unsupported on fields of type [${field.type}]. Use doc values instead.`,
      );
    }
    const sf = this.rs?.segment.field(path);
    if (field.vector) return vectorReader(path, field.vector, sf?.sortedSet);
    const type = field.type as string;
    const kind: DocFieldKind =
      type === 'date' || type === 'date_nanos'
        ? 'date'
        : type === 'boolean'
          ? 'boolean'
          : type === 'geo_point'
            ? 'geo_point'
            : type === 'keyword' || type === 'ip' || type === 'constant_keyword' || type === 'wildcard'
              ? 'string'
              : LONG_TYPES.has(type)
                ? 'long'
                : 'double';
    // One DocField per field, refilled as the lookup moves from document to document.
    const docField = new DocField(path, kind, []);
    const out = docField.values;
    if (!sf) return () => docField;
    let last = -1;
    if (sf.geo) {
      const g = sf.geo;
      return (doc) => {
        if (doc === last) return docField;
        last = doc;
        out.length = 0;
        for (let i = g.starts[doc]!; i < g.starts[doc + 1]!; i++)
          out.push(new GeoPointValue(g.lat[i]!, g.lon[i]!));
        return docField;
      };
    }
    const n = sf.numeric;
    if (n) {
      // Longs are read as doubles, converted once per segment (as aggregations read them).
      const nums =
        n.kind === 'double' ? n.values : asDoubles(this.rs!, path, n.values, type === 'date_nanos');
      const starts = n.starts;
      const plain = kind === 'long' || kind === 'double';
      return (doc) => {
        if (doc === last) return docField;
        last = doc;
        const s = starts[doc]!;
        const e = starts[doc + 1]!;
        if (plain && e === s + 1) {
          // Setting an array's length is a native call: only when it changes.
          if (out.length !== 1) out.length = 1;
          out[0] = nums[s];
          return docField;
        }
        out.length = 0;
        for (let i = s; i < e; i++) {
          const v = nums[i]!;
          out.push(plain ? v : kind === 'date' ? new DateValue(v) : kind === 'boolean' ? v !== 0 : v);
        }
        return docField;
      };
    }
    const ss = sf.sortedSet;
    if (ss) {
      return (doc) => {
        if (doc === last) return docField;
        last = doc;
        const s = ss.starts[doc]!;
        const e = ss.starts[doc + 1]!;
        if (e === s + 1) {
          if (out.length !== 1) out.length = 1;
          const t = ss.terms[ss.ords[s]!]!;
          out[0] = kind === 'boolean' ? t === 'true' || t === 'T' : t;
          return docField;
        }
        out.length = 0;
        for (let i = s; i < e; i++) {
          const t = ss.terms[ss.ords[i]!]!;
          out.push(kind === 'boolean' ? t === 'true' || t === 'T' : t);
        }
        return docField;
      };
    }
    return () => docField;
  }
}

/** A dense_vector field: its one vector per doc, decoded from its doc-values term. */
function vectorReader(path: string, spec: VectorFieldSpec, ss: SortedSetValues | undefined): Reader {
  const docField = new DocField(path, 'dense_vector', []);
  const out = docField.values;
  let last = -1;
  const scratch = new Float32Array(spec.dims);
  return (doc) => {
    if (doc === last || !ss) return docField;
    last = doc;
    out.length = 0;
    const s = ss.starts[doc]!;
    if (s < ss.starts[doc + 1]!) {
      decodeVectorInto(ss.terms[ss.ords[s]!]!, spec.elementType, scratch, 0);
      out.push(Array.from(scratch));
    }
    return docField;
  };
}

function asDoubles(rs: ReaderSegment, path: string, values: BigInt64Array, nanos: boolean): Float64Array {
  return rs.segment.cached(`script:dbl:${path}`, () => {
    const out = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++)
      out[i] = nanos ? Number(values[i]! / 1_000_000n) : Number(values[i]!);
    return out;
  });
}
