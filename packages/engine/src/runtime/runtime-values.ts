/**
 * A runtime field's values in one segment, computed once per segment and definition and laid
 * out as an indexed field's are (postings and doc values for keyword, ip and boolean; sorted
 * numeric doc values for long, double and date; points for geo_point), so that every query,
 * aggregation, sort and fetch reads them as it reads a mapped field. The values come from the
 * field's script (`emit(...)`, with `doc` and `params._source`), or — without a script — from
 * `_source` at the field's path, parsed as a mapped field of its type would parse them, values
 * that do not parse left out.
 */
import { parseJson, type RuntimeFieldSpec, type RuntimeType } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, parseDateValue } from '../dates/index.ts';
import { FieldWriters } from '../index/field-writer-set.ts';
import type { SegmentField } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { FALSE_TERM, parseBooleanValue, TRUE_TERM } from '../mapping/boolean-value.ts';
import { parseGeoPoint } from '../mapping/geo-value.ts';
import { normalizeIp } from '../mapping/ip-value.ts';
import { parseNumber } from '../mapping/number-values.ts';
import { SegmentDocLookup } from '../script/doc-lookup.ts';
import { compileSpec } from '../script/script.ts';
import { ScriptRuntimeError } from '../script/script-error.ts';
import { javaClassOf } from '../script/values.ts';
import { compositeValues } from './composite-emit.ts';

/** AbstractFieldScript.MAX_VALUES. */
const MAX_VALUES = 100;

/** One document's values, as the writers take them. */
interface Sink {
  term(t: string): void;
  number(n: number | bigint): void;
  geo(lat: number, lon: number): void;
}

/** Converts one emitted or `_source` value to the field's type; throws when it does not parse. */
function addValue(spec: RuntimeFieldSpec, v: unknown, sink: Sink, fromScript: boolean): void {
  switch (spec.type) {
    case 'keyword':
      if (fromScript && typeof v !== 'string') throw castError(v, 'java.lang.String');
      sink.term(typeof v === 'string' ? v : String(v));
      return;
    case 'boolean':
      if (fromScript && typeof v !== 'boolean') throw castError(v, 'java.lang.Boolean');
      sink.term(parseBooleanValue(v) ? TRUE_TERM : FALSE_TERM);
      return;
    case 'ip':
      if (fromScript && typeof v !== 'string') throw castError(v, 'java.lang.String');
      sink.term(normalizeIp(String(v)));
      return;
    case 'long': {
      if (fromScript && typeof v !== 'number' && typeof v !== 'bigint') throw castError(v, 'java.lang.Long');
      const n = parseNumber('long', v, true);
      if (n !== null) sink.number(n);
      return;
    }
    case 'double': {
      if (fromScript && typeof v !== 'number') throw castError(v, 'java.lang.Double');
      const n = parseNumber('double', v, true);
      if (n !== null) sink.number(n);
      return;
    }
    case 'date':
      if (fromScript) {
        if (typeof v !== 'number') throw castError(v, 'java.lang.Long');
        sink.number(Math.trunc(v));
        return;
      }
      sink.number(parseDateValue(v as string | number, spec.format ?? DEFAULT_DATE_FORMAT, 'millis'));
      return;
    case 'geo_point': {
      const p = parseGeoPoint(v, '', true);
      sink.geo(p.lat, p.lon);
      return;
    }
  }
}

function castError(v: unknown, to: string): ScriptRuntimeError {
  return new ScriptRuntimeError('class_cast_exception', `Cannot cast ${javaClassOf(v)} to ${to}`);
}

/** The raw values of `source` at a dotted path (XContentMapValues.extractRawValues). */
export function sourceValuesAt(source: unknown, path: string, geo: boolean): unknown[] {
  const out: unknown[] = [];
  const parts = path.split('.');
  const leaf = (v: unknown) => {
    if (v === null || v === undefined) return;
    // A geo point may be written as [lon, lat]: an array of numbers is one point, not two values.
    if (Array.isArray(v) && !(geo && v.length >= 2 && v.every((x) => typeof x === 'number'))) {
      for (const x of v) leaf(x);
      return;
    }
    out.push(v);
  };
  const walk = (node: unknown, i: number) => {
    if (i === parts.length) return leaf(node);
    if (Array.isArray(node)) {
      for (const x of node) walk(x, i);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    let key = '';
    for (let j = i; j < parts.length; j++) {
      key = j === i ? parts[j]! : `${key}.${parts[j]}`;
      if (Object.hasOwn(node, key)) walk((node as Record<string, unknown>)[key], j + 1);
    }
  };
  walk(source, 0);
  return out;
}

/** Builds the field's values over every doc of the segment (deleted ones too: the cache is per segment). */
export function computeRuntimeField(
  name: string,
  spec: RuntimeFieldSpec,
  rs: ReaderSegment,
  mapping: IndexMapping,
  index: string,
): SegmentField {
  const segment = rs.segment;
  const maxDoc = segment.maxDoc;
  const writers = new FieldWriters();
  let doc = 0;
  let count = 0;
  // Composite fields reach here flattened into their typed sub-fields.
  const type = spec.type as RuntimeType;
  const termWriter =
    type === 'keyword' || type === 'ip' || type === 'boolean' ? writers.terms(name, type) : null;
  const numWriter =
    type === 'long' || type === 'double' || type === 'date' ? writers.numeric(name, type) : null;
  const geoWriter = type === 'geo_point' ? writers.geo(name) : null;
  const sink: Sink = {
    term(t) {
      const id = termWriter!.termId(t);
      termWriter!.addToken(id, doc, 0);
      termWriter!.addDocValue(id, doc);
      termWriter!.markDoc(doc);
    },
    number(n) {
      numWriter!.add(doc, n);
    },
    geo(lat, lon) {
      geoWriter!.add(doc, lat, lon);
    },
  };
  const sourceOf = (d: number): unknown => parseJson(segment.source(d), '_source');
  if (spec.script) {
    // While a lenient run is going, its values wait here until it ends without failing.
    const pending: (() => void)[] = [];
    let buffering = false;
    const direct = sink;
    const buffered: Sink = {
      term: (t) => pending.push(() => direct.term(t)),
      number: (n) => pending.push(() => direct.number(n)),
      geo: (lat, lon) => pending.push(() => direct.geo(lat, lon)),
    };
    const out = () => (buffering ? buffered : direct);
    const script = compileSpec(spec.script);
    const lookup = new SegmentDocLookup(mapping, index);
    lookup.setSegment(rs);
    let cached: { doc: number; value: unknown } | undefined;
    const params: Record<string, unknown> = { ...spec.script.params };
    // `params._source` is parsed only for the documents whose script reads it.
    Object.defineProperty(params, '_source', {
      enumerable: true,
      get: () => {
        if (cached?.doc !== doc) cached = { doc, value: sourceOf(doc) };
        return cached.value;
      },
    });
    const emit = (args: unknown[]) => {
      if (++count > MAX_VALUES) {
        throw new ScriptRuntimeError(
          'illegal_argument_exception',
          `Runtime field [${name}] is emitting [${count}] values while the maximum number of values allowed is [${MAX_VALUES}]`,
        );
      }
      if (spec.compositeKey !== undefined) {
        for (const v of compositeValues(args, spec.compositeKey)) {
          try {
            addValue(spec, v, out(), false);
          } catch {
            // A value that does not parse as the sub-field's type is left out.
          }
        }
        return;
      }
      if (type === 'geo_point') {
        if (args.length !== 2 || typeof args[0] !== 'number' || typeof args[1] !== 'number') {
          throw new ScriptRuntimeError(
            'illegal_argument_exception',
            'emit for [geo_point] takes [double lat, double lon]',
          );
        }
        out().geo(args[0], args[1]);
        return;
      }
      if (args.length !== 1) {
        throw new ScriptRuntimeError(
          'illegal_argument_exception',
          `Unknown call [emit] with [${args.length}] arguments.`,
        );
      }
      addValue(spec, args[0], out(), true);
    };
    const ctx = { params, doc: lookup, emit };
    const lenient = spec.onScriptError === 'continue';
    for (doc = 0; doc < maxDoc; doc++) {
      count = 0;
      lookup.setDoc(doc);
      if (!lenient) {
        script.run(ctx);
        continue;
      }
      // `on_script_error: continue`: the document keeps no values of a run that failed.
      pending.length = 0;
      buffering = true;
      try {
        script.run(ctx);
        for (const p of pending) p();
      } catch {
        // Dropped with the run's values.
      } finally {
        buffering = false;
      }
    }
  } else if (segment.maxDoc > 0) {
    for (doc = 0; doc < maxDoc; doc++) {
      for (const v of sourceValuesAt(sourceOf(doc), name, type === 'geo_point')) {
        try {
          addValue(spec, v, sink, false);
        } catch {
          // A value that does not parse as the field's type is left out, as ignore_malformed does.
        }
      }
    }
  }
  if (termWriter) {
    const built = termWriter.build(maxDoc);
    const f: SegmentField = {
      path: name,
      type,
      docsWithField: built.docsWithField,
      postings: built.postings,
    };
    if (built.sortedSet) f.sortedSet = built.sortedSet;
    return f;
  }
  if (numWriter) {
    const built = numWriter.build(maxDoc);
    return { path: name, type, docsWithField: built.docsWithField, numeric: built.numeric };
  }
  const built = geoWriter!.build(maxDoc);
  return { path: name, type: 'geo_point', docsWithField: built.docsWithField, geo: built.geo };
}
