/**
 * FetchDocValuesPhase: a field's values read from its doc values, in doc-value order (sorted;
 * a sorted set also without duplicates), formatted by the field's DocValueFormat or the
 * requested `format`.
 */
import { illegalArgument, javaDouble, notImplemented, stringifyJson } from '@shoal/protocol';
import { formatDate } from '../dates/index.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { MappedField } from '../mapping/compiled.ts';
import { parseIp } from './ip.ts';

const TEXT_FIELDDATA =
  'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [%s] in order to load field data by uninverting the inverted index. Note that this can use significant memory.';

/** Reads one doc's values of one field as JSON texts. */
export type DocValuesReader = (rs: ReaderSegment, doc: number, out: string[]) => void;

/** MappedFieldType.fielddataBuilder / docValueFormat: the reader, or the mapper's refusal. */
export function docValuesReader(f: MappedField, format: string | undefined, index: string): DocValuesReader {
  if (f.type === 'text') {
    throw illegalArgument(
      `Fielddata is disabled on [${f.path}] in [${index}]. ${TEXT_FIELDDATA.replace('%s', f.path)}`,
    );
  }
  if (!f.docValues) {
    throw illegalArgument(
      `Can't load fielddata on [${f.path}] because fielddata is unsupported on fields of type [${f.type}]. Use doc values instead.`,
    );
  }
  const noFormat = () => {
    if (format !== undefined)
      throw illegalArgument(`Field [${f.path}] of type [${f.type}] does not support custom formats`);
  };
  switch (f.type) {
    case 'keyword':
      noFormat();
      return terms(f.path, (t) => stringifyJson(t));
    case 'boolean':
      noFormat();
      return terms(f.path, (t) => (t === 'T' || t === 'true' ? 'true' : 'false'));
    case 'ip': {
      noFormat();
      const read = terms(f.path, (t) => stringifyJson(t));
      // Doc values order addresses by their 16-byte form, not by their text.
      return (rs, doc, out) => {
        const start = out.length;
        read(rs, doc, out);
        const mine = out.splice(start);
        mine.sort((a, b) => {
          const x = parseIp(JSON.parse(a)) ?? 0n;
          const y = parseIp(JSON.parse(b)) ?? 0n;
          return x < y ? -1 : x > y ? 1 : 0;
        });
        out.push(...mine);
      };
    }
    case 'date':
    case 'date_nanos': {
      const resolution = f.type === 'date' ? 'millis' : 'nanos';
      const fmt = format ?? f.format!;
      formatDate(0, resolution, fmt);
      return numbers(f.path, (n) => stringifyJson(formatDate(n, resolution, fmt)));
    }
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      if (format !== undefined) throw notImplemented('a DecimalFormat `format` in docvalue_fields');
      return numbers(f.path, (n) => (typeof n === 'bigint' ? n.toString() : String(n)));
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float':
      if (format !== undefined) throw notImplemented('a DecimalFormat `format` in docvalue_fields');
      return numbers(f.path, (n) => javaDouble(Number(n)));
    case 'geo_point':
      throw notImplemented('docvalue_fields on geo_point fields');
  }
}

function terms(path: string, render: (term: string) => string): DocValuesReader {
  return (rs, doc, out) => {
    const ss = rs.segment.field(path)?.sortedSet;
    if (!ss) return;
    for (let k = ss.starts[doc]!; k < ss.starts[doc + 1]!; k++) out.push(render(ss.terms[ss.ords[k]!]!));
  };
}

function numbers(path: string, render: (n: number | bigint) => string): DocValuesReader {
  return (rs, doc, out) => {
    const nv = rs.segment.field(path)?.numeric;
    if (!nv) return;
    for (let k = nv.starts[doc]!; k < nv.starts[doc + 1]!; k++) out.push(render(nv.values[k]!));
  };
}
