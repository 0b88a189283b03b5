import { describe, expect, it } from 'vitest';
import type { IndexableField } from '../contract.ts';
import { createIndexMapping, type ShoalIndexMapping } from './index-mapping.ts';
import { bytes, thrown } from './test-helpers.ts';

const opts = { indexName: 'test' };

function fieldsOf(m: ShoalIndexMapping, doc: unknown, id = '1'): Record<string, IndexableField> {
  const out: Record<string, IndexableField> = {};
  for (const f of m.parseDocument(id, bytes(doc)).doc.fields) out[f.path] = f;
  return out;
}

/** Parses, merges the dynamic update, re-parses: the caller's loop. */
function indexDynamic(m: ShoalIndexMapping, doc: unknown): ShoalIndexMapping {
  const r = m.parseDocument('1', bytes(doc));
  if (!r.dynamicUpdate) return m;
  const merged = m.merge(r.dynamicUpdate);
  expect(merged.parseDocument('1', bytes(doc)).dynamicUpdate).toBeUndefined();
  return merged;
}

describe('dynamic mapping', () => {
  it('maps new fields as Elasticsearch does', () => {
    const m = createIndexMapping(undefined, opts);
    const r = m.parseDocument(
      '1',
      bytes(
        '{"s":"hello","d":"2015-01-01","d2":"2015/01/01","n":5,"f":1.5,"f1":1.0,"b":true,"o":{"x":{"y":"z"}},"e":{},"nul":null,"arr":[],"num":"123"}',
      ),
    );
    expect(r.dynamicUpdate).toEqual({
      properties: {
        s: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        d: { type: 'date' },
        d2: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' },
        n: { type: 'long' },
        f: { type: 'float' },
        f1: { type: 'float' },
        b: { type: 'boolean' },
        o: {
          properties: {
            x: {
              properties: {
                y: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
              },
            },
          },
        },
        e: { type: 'object' },
        num: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      },
    });
    const merged = m.merge(r.dynamicUpdate!);
    expect(
      merged.parseDocument('1', bytes('{"s":"again","o":{"x":{"y":"q"}},"e":{}}')).dynamicUpdate,
    ).toBeUndefined();
    expect((merged.toJSON().properties as Record<string, unknown>).s).toEqual({
      type: 'text',
      fields: { keyword: { type: 'keyword', ignore_above: 256 } },
    });
  });

  it('honours date_detection, numeric_detection and dynamic_date_formats', () => {
    const m = createIndexMapping(
      { date_detection: false, numeric_detection: true, dynamic_date_formats: ['MM/dd/yyyy'] },
      opts,
    );
    expect(m.parseDocument('1', bytes({ a: '2015-01-01', l: '42', f: '4.2' })).dynamicUpdate).toEqual({
      properties: {
        a: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        l: { type: 'long' },
        f: { type: 'float' },
      },
    });
    const withFormats = createIndexMapping({ dynamic_date_formats: ['MM/dd/yyyy'] }, opts);
    expect(withFormats.parseDocument('1', bytes({ a: '01/31/2015' })).dynamicUpdate).toEqual({
      properties: { a: { type: 'date', format: 'MM/dd/yyyy' } },
    });
    expect(
      createIndexMapping(undefined, { indexName: 'x', dateDetection: false }).parseDocument(
        '1',
        bytes({ a: '2015-01-01' }),
      ).dynamicUpdate,
    ).toEqual({
      properties: { a: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } },
    });
  });

  it('puts new fields under existing objects, keeping nested settings', () => {
    const m = createIndexMapping(
      {
        properties: {
          o: { properties: { a: { type: 'keyword' } } },
          n: { type: 'nested', include_in_root: true },
        },
      },
      opts,
    );
    const r = m.parseDocument('1', bytes({ o: { a: 'x', b: 1 }, n: [{ c: true }] }));
    expect(r.dynamicUpdate).toEqual({
      properties: {
        o: { properties: { b: { type: 'long' } } },
        n: { type: 'nested', include_in_root: true, properties: { c: { type: 'boolean' } } },
      },
    });
    const merged = indexDynamic(m, { o: { a: 'x', b: 1 }, n: [{ c: true }] });
    expect(merged.field('n.c')?.type).toBe('boolean');
  });

  it('expands dotted field names', () => {
    const m = createIndexMapping({ properties: { a: { properties: { b: { type: 'keyword' } } } } }, opts);
    expect(fieldsOf(m, { 'a.b': 'x' })['a.b']?.terms).toEqual(['x']);
    expect(m.parseDocument('1', bytes({ 'a.c.d': 1 })).dynamicUpdate).toEqual({
      properties: { a: { properties: { c: { properties: { d: { type: 'long' } } } } } },
    });
  });

  it('makes new fields runtime fields of the detected type with dynamic runtime', () => {
    const m = createIndexMapping(
      {
        dynamic: 'runtime',
        properties: { k: { type: 'keyword' }, strict: { type: 'object', dynamic: 'strict' } },
      },
      opts,
    );
    const r = m.parseDocument(
      '1',
      bytes({
        k: 'x',
        s: 'hello',
        d: '2015-01-01',
        n: 5,
        f: 1.5,
        b: true,
        o: { x: { y: 'z' } },
        arr: [1, 2],
        nul: null,
      }),
    );
    expect(r.doc.fields.map((f) => f.path)).toEqual(['k']);
    expect(r.dynamicUpdate).toEqual({
      runtime: {
        s: { type: 'keyword' },
        d: { type: 'date' },
        n: { type: 'long' },
        f: { type: 'double' },
        b: { type: 'boolean' },
        'o.x.y': { type: 'keyword' },
        arr: { type: 'long' },
      },
    });
    const merged = indexDynamic(m, { s: 'hello', o: { x: { y: 'z' } } });
    expect(
      merged.parseDocument('2', bytes({ s: 'again', o: { x: { y: 'q' } } })).dynamicUpdate,
    ).toBeUndefined();
    expect(merged.toJSON()).toMatchObject({ dynamic: 'runtime', runtime: { s: { type: 'keyword' } } });
    expect(thrown(() => m.parseDocument('3', bytes({ strict: { new: 1 } }))).type).toBe(
      'strict_dynamic_mapping_exception',
    );
  });

  it('leaves unmapped fields alone with dynamic false, and objects inherit it', () => {
    const m = createIndexMapping(
      {
        dynamic: false,
        properties: {
          o: { properties: { a: { type: 'keyword' } } },
          open: { dynamic: true, properties: {} },
        },
      },
      opts,
    );
    const r = m.parseDocument('1', bytes({ x: 1, o: { a: 'v', b: 2 }, open: { c: 'new' } }));
    expect(r.doc.fields.map((f) => f.path)).toEqual(['o.a', 'open.c', 'open.c.keyword']);
    expect(r.dynamicUpdate).toEqual({
      properties: {
        open: {
          properties: { c: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } },
        },
      },
    });
  });

  it('rejects new fields with dynamic strict', () => {
    const m = createIndexMapping(
      { dynamic: 'strict', properties: { o: { properties: {} }, a: { type: 'long' } } },
      opts,
    );
    const e = thrown(() => m.parseDocument('1', bytes('{"a":1,"b":2}')));
    expect(e.type).toBe('strict_dynamic_mapping_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe(
      '[1:12] mapping set to strict, dynamic introduction of [b] within [_doc] is not allowed',
    );
    expect(thrown(() => m.parseDocument('1', bytes('{"o":{"z":null}}'))).reason).toBe(
      '[1:11] mapping set to strict, dynamic introduction of [z] within [o] is not allowed',
    );
  });

  it('stops at the total fields limit', () => {
    const m = createIndexMapping(
      { properties: { a: { type: 'long' } } },
      { indexName: 'x', totalFieldsLimit: 2 },
    );
    const e = thrown(() => m.parseDocument('1', bytes({ a: 1, b: 2, c: 3 })));
    expect(e.type).toBe('document_parsing_exception');
    expect(e.reason).toBe(
      '[1:18] failed to parse: Limit of total fields [2] has been exceeded while adding new fields [2]',
    );
    expect(e.causedBy?.reason).toBe(
      'Limit of total fields [2] has been exceeded while adding new fields [2]',
    );
  });
});

describe('values', () => {
  const m = createIndexMapping(
    {
      properties: {
        t: { type: 'text', position_increment_gap: 10, fields: { k: { type: 'keyword' } } },
        k: { type: 'keyword', ignore_above: 3, null_value: 'NUL' },
        low: { type: 'keyword', normalizer: 'lowercase' },
        l: { type: 'long' },
        i: { type: 'integer' },
        s: { type: 'short' },
        by: { type: 'byte' },
        d: { type: 'double' },
        f: { type: 'float' },
        strict: { type: 'integer', coerce: false },
        lenient: { type: 'integer', ignore_malformed: true },
        nv: { type: 'long', null_value: 7 },
        b: { type: 'boolean' },
        date: { type: 'date' },
        nanos: { type: 'date_nanos' },
        custom: { type: 'date', format: 'dd/MM/yyyy' },
        ip: { type: 'ip' },
        geo: { type: 'geo_point' },
        o: { properties: { x: { type: 'keyword' } } },
        off: { type: 'object', enabled: false },
        copy: { type: 'keyword', copy_to: 'all' },
        all: { type: 'text' },
        noindex: { type: 'keyword', index: false, doc_values: false },
      },
    },
    opts,
  );

  it('analyses text with position gaps between values, and multi-fields', () => {
    const f = fieldsOf(m, { t: ['Quick fox', 'lazy Dog'] });
    expect(f.t?.tokens?.map((t) => [t.term, t.position])).toEqual([
      ['quick', 0],
      ['fox', 1],
      ['lazy', 12],
      ['dog', 13],
    ]);
    expect(f['t.k']?.terms).toEqual(['Quick fox', 'lazy Dog']);
  });

  it('indexes keywords with ignore_above, null_value and normalizer', () => {
    const f = fieldsOf(m, { k: ['abc', 'abcd', null, 12], low: 'MiXeD' });
    expect(f.k?.terms).toEqual(['abc', 'NUL', '12']);
    expect(f.low?.terms).toEqual(['mixed']);
  });

  it('coerces numbers as Elasticsearch does', () => {
    const f = fieldsOf(m, {
      l: ['5', 5.7, '9007199254740993', -3],
      i: '12.9',
      s: 7,
      by: -128,
      d: '1.5',
      f: 1.1,
      nv: null,
    });
    expect(f.l?.numbers).toEqual([5, 5, 9007199254740993n, -3]);
    expect(f.i?.numbers).toEqual([12]);
    expect(f.s?.numbers).toEqual([7]);
    expect(f.by?.numbers).toEqual([-128]);
    expect(f.d?.numbers).toEqual([1.5]);
    expect(f.f?.numbers).toEqual([Math.fround(1.1)]);
    expect(f.nv?.numbers).toEqual([7]);
    expect(fieldsOf(m, '{"l": 9223372036854775807}').l?.numbers).toEqual([9223372036854775807n]);
    expect(fieldsOf(m, { l: '' }).l).toBeUndefined();
  });

  it('reports malformed values with Elasticsearch texts', () => {
    const cases: [unknown, string, string, string][] = [
      [
        { l: 'abc' },
        "failed to parse field [l] of type [long] in document with id '1'. Preview of field's value: 'abc'",
        'illegal_argument_exception',
        'For input string: "abc"',
      ],
      [
        { i: 'abc' },
        "failed to parse field [i] of type [integer] in document with id '1'. Preview of field's value: 'abc'",
        'number_format_exception',
        'For input string: "abc"',
      ],
      [
        { i: '3000000000' },
        "failed to parse field [i] of type [integer] in document with id '1'. Preview of field's value: '3000000000'",
        'illegal_argument_exception',
        'Value [3000000000] is out of range for an integer',
      ],
      [
        { s: 40000 },
        "failed to parse field [s] of type [short] in document with id '1'. Preview of field's value: '40000'",
        'illegal_argument_exception',
        'Numeric value (40000) out of range of Java short',
      ],
      [
        { strict: 1.5 },
        "failed to parse field [strict] of type [integer] in document with id '1'. Preview of field's value: '1.5'",
        'illegal_argument_exception',
        '1.5 cannot be converted to Integer without data loss',
      ],
      [
        { strict: '1' },
        "failed to parse field [strict] of type [integer] in document with id '1'. Preview of field's value: '1'",
        'illegal_argument_exception',
        'Integer value passed as String',
      ],
      [
        { l: '9223372036854775808' },
        "failed to parse field [l] of type [long] in document with id '1'. Preview of field's value: '9223372036854775808'",
        'illegal_argument_exception',
        'Value [9223372036854775808] is out of range for a long',
      ],
      [
        { b: 'yes' },
        "failed to parse field [b] of type [boolean] in document with id '1'. Preview of field's value: 'yes'",
        'illegal_argument_exception',
        'Failed to parse value [yes] as only [true] or [false] are allowed.',
      ],
      [
        { date: 'nope' },
        "failed to parse field [date] of type [date] in document with id '1'. Preview of field's value: 'nope'",
        'illegal_argument_exception',
        'failed to parse date field [nope] with format [strict_date_optional_time||epoch_millis]',
      ],
      [
        { ip: '1.2.3' },
        "failed to parse field [ip] of type [ip] in document with id '1'. Preview of field's value: '1.2.3'",
        'illegal_argument_exception',
        "'1.2.3' is not an IP string literal.",
      ],
      [
        { k: { a: 1 } },
        "failed to parse field [k] of type [keyword] in document with id '1'. Preview of field's value: '{a=1}'",
        'illegal_argument_exception',
        "Can't get text on a START_OBJECT",
      ],
    ];
    for (const [doc, reason, causeType, causeReason] of cases) {
      const e = thrown(() => m.parseDocument('1', bytes(doc)));
      expect(e.type).toBe('document_parsing_exception');
      expect(e.status).toBe(400);
      expect(e.reason.replace(/^\[\d+:\d+\] /, '')).toBe(reason);
      expect(e.causedBy?.type).toBe(causeType);
      expect(e.causedBy?.reason).toBe(causeReason);
    }
    expect(thrown(() => m.parseDocument('1', bytes('{\n  "l": [221, 309, "hello"]\n}'))).reason).toBe(
      "[2:19] failed to parse field [l] of type [long] in document with id '1'. Preview of field's value: 'hello'",
    );
  });

  it('skips malformed values with ignore_malformed', () => {
    const f = fieldsOf(m, { lenient: ['x', 4] });
    expect(f.lenient?.numbers).toEqual([4]);
  });

  it('parses booleans, dates, ips and points', () => {
    const f = fieldsOf(m, {
      b: [true, 'false', ''],
      date: ['2015-01-01T00:00:00Z', 1420070400001],
      nanos: '2015-01-01T00:00:00.123456789Z',
      custom: '31/01/2015',
      ip: ['192.168.0.1', '2001:DB8:0:0:0:0:0:1', '::ffff:10.0.0.1'],
      geo: [
        { lat: 41.12, lon: -71.34 },
        '41.12,-71.34',
        [-71.34, 41.12],
        'POINT (-71.34 41.12)',
        'drm3btev3e86',
      ],
    });
    expect(f.b?.terms).toEqual(['true', 'false', 'false']);
    expect(f.date?.numbers).toEqual([1420070400000, 1420070400001]);
    expect(f.nanos?.numbers).toEqual([1420070400123456789n]);
    expect(f.custom?.numbers).toEqual([Date.UTC(2015, 0, 31)]);
    expect(f.ip?.terms).toEqual(['192.168.0.1', '2001:db8::1', '10.0.0.1']);
    expect(f.geo?.geo?.length).toBe(5);
    for (const p of f.geo!.geo!) {
      expect(p.lat).toBeCloseTo(41.12, 4);
      expect(p.lon).toBeCloseTo(-71.34, 4);
    }
    const single = fieldsOf(m, { geo: [-71.34, 41.12] });
    expect(single.geo?.geo).toEqual([{ lat: 41.12, lon: -71.34 }]);
  });

  it('flattens arrays of objects and skips disabled objects', () => {
    const f = fieldsOf(m, { o: [{ x: 'a' }, { x: ['b', 'c'] }], off: { anything: [1, { deep: true }] } });
    expect(f['o.x']?.terms).toEqual(['a', 'b', 'c']);
    expect(Object.keys(f)).toEqual(['o.x']);
  });

  it('applies copy_to and skips fields that are neither indexed nor doc-valued', () => {
    const f = fieldsOf(m, { copy: 'Hello', noindex: 'x' });
    expect(f.copy?.terms).toEqual(['Hello']);
    expect(f.all?.tokens?.map((t) => t.term)).toEqual(['hello']);
    expect(f.noindex).toBeUndefined();
  });

  it('rejects concrete values for objects, metadata fields and bad JSON', () => {
    expect(thrown(() => m.parseDocument('1', bytes({ o: 'x' }))).reason).toBe(
      '[1:6] object mapping for [o] tried to parse field [o] as object, but found a concrete value',
    );
    expect(thrown(() => m.parseDocument('1', bytes({ _id: 'x' }))).reason).toBe(
      '[1:8] Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters.',
    );
    expect(thrown(() => m.parseDocument('1', bytes(''))).reason).toBe(
      '[0:0] failed to parse, document is empty',
    );
    expect(thrown(() => m.parseDocument('1', bytes('[1]'))).reason).toBe(
      'Malformed content, must start with an object',
    );
    const bad = thrown(() => m.parseDocument('1', bytes('{"a":}')));
    expect(bad.type).toBe('document_parsing_exception');
    expect(bad.reason).toBe("[1:6] Unexpected character ('}' (code 125)): expected a value");
  });

  it('returns the id, routing and source bytes', () => {
    const src = bytes({ k: 'a' });
    const r = m.parseDocument('42', src, 'r1');
    expect(r.doc.id).toBe('42');
    expect(r.doc.routing).toBe('r1');
    expect(r.doc.source).toBe(src);
    expect(r.dynamicUpdate).toBeUndefined();
  });
});

describe('index.mapping.nested_objects.limit', () => {
  it('bounds the nested objects of one document, across nested fields', () => {
    const m = createIndexMapping(
      { properties: { a: { type: 'nested' }, b: { type: 'nested', properties: { c: { type: 'nested' } } } } },
      { ...opts, nestedObjectsLimit: 3 },
    );
    expect(() => m.parseDocument('1', bytes({ a: [{}, {}], b: {} }))).not.toThrow();
    const e = thrown(() => m.parseDocument('1', bytes({ a: [{}, {}], b: { c: {} } })));
    expect(e.type).toBe('document_parsing_exception');
    expect(e.reason).toBe(
      '[1:23] failed to parse: The number of nested documents has exceeded the allowed limit of [3]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.',
    );
  });
});
