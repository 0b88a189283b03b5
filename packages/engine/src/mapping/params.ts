/**
 * The mapping parameters each field type accepts, declared once: name, default, whether a
 * mapping update may change it, how it parses, and the order `GET _mapping` prints it in (the
 * order of Elasticsearch's `getParameters()`). A parameter is printed when it was set to a
 * value other than its default, except `coerce`/`ignore_malformed`-style explicit flags, which
 * print whenever they were set.
 */
import {
  illegalArgument,
  isShoalError,
  javaDouble,
  javaFloat,
  mapperParsing,
  RawJson,
  type ShoalError,
} from '@shoal/protocol';
import { hasAnalyzer } from '../analysis/index.ts';
import type { FieldType } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT, validateDateFormat } from '../dates/index.ts';
import { numberFormat } from './errors.ts';
import { javaToString } from './java-text.ts';
import type { SpecialType } from './special-types.ts';

/** The number field types, in Elasticsearch's NumberType order, then the scaled one. */
export const NUMBER_TYPE_NAMES = [
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
] as const;

export type NumericType = (typeof NUMBER_TYPE_NAMES)[number];

/** The leaf types the index stores as they are: the contract's field types but object and nested. */
export type BaseLeafType = Exclude<FieldType, 'object' | 'nested'>;

/** Every leaf (non-object) field type a mapping may declare. */
export type LeafType = BaseLeafType | SpecialType;

export const BASE_LEAF_TYPES: readonly BaseLeafType[] = [
  'text',
  'keyword',
  ...NUMBER_TYPE_NAMES,
  'boolean',
  'date',
  'date_nanos',
  'geo_point',
  'ip',
];

export const NUMERIC_TYPES: ReadonlySet<string> = new Set(NUMBER_TYPE_NAMES);

/** The number types whose values are not whole. */
export const FLOATING_TYPES: ReadonlySet<string> = new Set(['double', 'float', 'half_float', 'scaled_float']);

export interface ParamContext {
  /** Leaf name of the field being parsed (as Elasticsearch names it in parse errors). */
  field: string;
  type: LeafType;
  /** Parameters parsed so far on this field. */
  params: Record<string, unknown>;
}

export interface ParamSpec {
  name: string;
  /** Default value (what an omitted parameter means). */
  defaultValue: (params: Record<string, unknown>) => unknown;
  /** true: any change allowed; false: must stay equal; function: custom merge rule. */
  updatable: boolean | ((prev: unknown, next: unknown) => boolean);
  parse: (value: unknown, ctx: ParamContext) => unknown;
  acceptsNull?: boolean;
  /** Explicit flags print whenever set, even to their default. */
  alwaysPrintIfSet?: boolean;
  /** How a value appears in `Cannot update parameter [p] from [x] to [y]`. */
  conflictText?: (v: unknown) => string;
  /**
   * How `GET _mapping` prints the value when that differs from the stored JSON: a value that
   * Elasticsearch holds as a Java double or float prints with its `.0` (`100.0`).
   */
  display?: (value: unknown, type: LeafType) => unknown;
}

/** A number that Elasticsearch keeps as a Java double, or as a float for float-backed types. */
export function javaNumberText(value: unknown, type: LeafType): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  return new RawJson(type === 'float' || type === 'half_float' ? javaFloat(value) : javaDouble(value));
}

export function parseBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  const s = javaToString(v);
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw illegalArgument(`Failed to parse value [${s}] as only [true] or [false] are allowed.`);
}

export function parseInt32(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  const s = javaToString(v);
  if (!/^[+-]?\d+$/.test(s) || Math.abs(Number(s)) > 2147483647) throw numberFormat(s);
  return Number(s);
}

export const str = (v: unknown) => javaToString(v);

export function bool(name: string, def: boolean, updatable: boolean, alwaysPrintIfSet = false): ParamSpec {
  return { name, defaultValue: () => def, updatable, parse: parseBool, alwaysPrintIfSet };
}

export function restricted(name: string, values: string[], updatable: boolean): ParamSpec {
  return {
    name,
    defaultValue: () => values[0],
    updatable,
    parse: (v) => {
      const s = str(v);
      if (!values.includes(s)) {
        throw mapperParsing(
          `Unknown value [${s}] for field [${name}] - accepted values are [${values.join(', ')}]`,
        );
      }
      return s;
    },
  };
}

export function analyzerParam(
  name: string,
  def: (p: Record<string, unknown>) => unknown,
  updatable: boolean,
): ParamSpec {
  return {
    name,
    defaultValue: def,
    updatable,
    parse: (v) => {
      const s = str(v);
      if (!hasAnalyzer(s)) throw illegalArgument(`analyzer [${s}] has not been configured in mappings`);
      return s;
    },
  };
}

/** A text field's analyzers: indexing, search (default: the indexing one), quoted search. */
export const textAnalyzers: readonly ParamSpec[] = [
  analyzerParam('analyzer', () => 'default', false),
  analyzerParam('search_analyzer', (p) => p.analyzer ?? 'default', true),
  analyzerParam('search_quote_analyzer', (p) => p.search_analyzer ?? p.analyzer ?? 'default', true),
];
export const index = bool('index', true, false);
export const docValues = bool('doc_values', true, false);
export const store = bool('store', false, false);
export const ignoreMalformed = bool('ignore_malformed', false, true, true);
export const boost: ParamSpec = {
  name: 'boost',
  defaultValue: () => 1,
  updatable: true,
  parse: (v) => {
    const n = typeof v === 'number' ? v : Number(str(v));
    if (Number.isNaN(n)) throw numberFormat(str(v));
    return n;
  },
};
export const meta: ParamSpec = {
  name: 'meta',
  defaultValue: () => undefined,
  updatable: true,
  parse: (v, ctx) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw mapperParsing(
        `[meta] must be an object, got ${javaToString(v)}[${javaToString(v)}] for field [${ctx.field}]`,
      );
    }
    for (const [k, val] of Object.entries(v)) {
      if (typeof val !== 'string') {
        throw mapperParsing(
          `[meta] values can only be strings, but got ${typeof val}[${javaToString(val)}] for field [${ctx.field}]`,
        );
      }
      if (k.length > 20)
        throw mapperParsing(
          `[meta] keys can't be longer than 20 chars, but got [${k}] for field [${ctx.field}]`,
        );
    }
    return v;
  },
  conflictText: (v) => javaToString(v ?? {}),
};
export const similarity: ParamSpec = {
  name: 'similarity',
  defaultValue: () => undefined,
  updatable: false,
  parse: (v, ctx) => {
    const s = str(v);
    if (s !== 'BM25') throw illegalArgument(`Unknown Similarity type [${s}] for field [${ctx.field}]`);
    return s;
  },
};
/** norms may only be switched off by an update (a field's norms can be dropped, never re-added). */
const normsUpdate = (prev: unknown, next: unknown) => prev === next || (prev === true && next === false);
export const eagerGlobalOrdinals = bool('eager_global_ordinals', false, true);

export const nullString: ParamSpec = {
  name: 'null_value',
  defaultValue: () => null,
  updatable: false,
  acceptsNull: true,
  parse: (v) => (v === null ? null : str(v)),
};

const KEYWORD: ParamSpec[] = [
  index,
  docValues,
  store,
  nullString,
  eagerGlobalOrdinals,
  {
    name: 'ignore_above',
    defaultValue: () => 2147483647,
    updatable: true,
    parse: (v) => {
      const n = parseInt32(v);
      if (n < 0) throw illegalArgument(`[ignore_above] must be positive, got [${n}]`);
      return n;
    },
  },
  restricted('index_options', ['docs', 'freqs'], false),
  { ...bool('norms', false, false), updatable: normsUpdate },
  similarity,
  {
    name: 'normalizer',
    defaultValue: () => undefined,
    updatable: false,
    parse: (v, ctx) => {
      const s = str(v);
      if (s !== 'lowercase') throw mapperParsing(`normalizer [${s}] not found for field [${ctx.field}]`);
      return s;
    },
  },
  bool('split_queries_on_whitespace', false, true),
  boost,
  meta,
];

const TEXT: ParamSpec[] = [
  index,
  store,
  restricted('index_options', ['positions', 'docs', 'freqs', 'offsets'], false),
  { ...bool('norms', true, false), updatable: normsUpdate },
  restricted(
    'term_vector',
    [
      'no',
      'yes',
      'with_positions',
      'with_offsets',
      'with_positions_offsets',
      'with_positions_payloads',
      'with_positions_offsets_payloads',
    ],
    false,
  ),
  ...textAnalyzers,
  similarity,
  {
    name: 'position_increment_gap',
    defaultValue: () => 100,
    updatable: false,
    parse: (v) => {
      const n = parseInt32(v);
      if (n < 0) throw mapperParsing(`[position_increment_gap] must be positive, got [${n}]`);
      return n;
    },
  },
  bool('fielddata', false, true),
  eagerGlobalOrdinals,
  bool('index_phrases', false, false),
  boost,
  meta,
];

function numberNull(): ParamSpec {
  return {
    name: 'null_value',
    defaultValue: () => null,
    updatable: false,
    acceptsNull: true,
    // Parsed with the field's own rules, without coercion (NumberType.parse(o, false)).
    parse: (v) => v,
    // Printed as the parsed Number: a Double or Float for the floating-point types.
    display: (v, type) => (FLOATING_TYPES.has(type) ? javaNumberText(v, type) : v),
  };
}

const NUMBER: ParamSpec[] = [
  index,
  docValues,
  store,
  ignoreMalformed,
  bool('coerce', true, true, true),
  numberNull(),
  boost,
  meta,
];

/**
 * `scaling_factor` of a scaled_float: required (parse-mapping.ts checks that it is set), a
 * positive finite number, fixed once the field exists.
 */
const scalingFactor: ParamSpec = {
  name: 'scaling_factor',
  defaultValue: () => undefined,
  updatable: false,
  parse: (v) => {
    const n = typeof v === 'number' ? v : Number(str(v));
    if (!Number.isFinite(n) || n <= 0)
      throw illegalArgument(`[scaling_factor] must be a positive number, got [${javaToString(v)}]`);
    return n;
  },
  display: javaNumberText,
  conflictText: (v) => javaDouble(v as number),
};

const SCALED_FLOAT: ParamSpec[] = [...NUMBER.slice(0, 4), meta, scalingFactor, ...NUMBER.slice(4, 7)];

const BOOLEAN: ParamSpec[] = [
  index,
  docValues,
  store,
  {
    name: 'null_value',
    defaultValue: () => null,
    updatable: false,
    acceptsNull: true,
    parse: (v) => (v === null ? null : parseBool(v)),
  },
  ignoreMalformed,
  boost,
  meta,
];

function dateParams(defaultFormat: string): ParamSpec[] {
  return [
    index,
    docValues,
    store,
    {
      name: 'format',
      defaultValue: () => defaultFormat,
      updatable: false,
      parse: (v, ctx) => {
        const s = str(v);
        try {
          validateDateFormat(s);
        } catch (e) {
          if (isShoalError(e))
            throw illegalArgument(`Error parsing [format] on field [${ctx.field}]: ${e.reason}`, e);
          throw e;
        }
        return s;
      },
    },
    { name: 'locale', defaultValue: () => 'ENGLISH', updatable: false, parse: str },
    nullString,
    ignoreMalformed,
    boost,
    meta,
  ];
}

const IP: ParamSpec[] = [index, docValues, store, ignoreMalformed, nullString, boost, meta];

const GEO_POINT: ParamSpec[] = [
  index,
  docValues,
  store,
  ignoreMalformed,
  bool('ignore_z_value', true, true, true),
  { name: 'null_value', defaultValue: () => null, updatable: false, acceptsNull: true, parse: (v) => v },
  meta,
];

export const BASE_PARAMS: Readonly<Record<BaseLeafType, ParamSpec[]>> = {
  text: TEXT,
  keyword: KEYWORD,
  long: NUMBER,
  integer: NUMBER,
  short: NUMBER,
  byte: NUMBER,
  double: NUMBER,
  float: NUMBER,
  half_float: NUMBER,
  scaled_float: SCALED_FLOAT,
  boolean: BOOLEAN,
  date: dateParams(DEFAULT_DATE_FORMAT),
  date_nanos: dateParams(DEFAULT_DATE_NANOS_FORMAT),
  geo_point: GEO_POINT,
  ip: IP,
};

/** Whether a set parameter shows in `GET _mapping`. */
export function printsParam(spec: ParamSpec, value: unknown, params: Record<string, unknown>): boolean {
  if (spec.alwaysPrintIfSet) return true;
  return !sameValue(value, spec.defaultValue(params));
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

export type { ShoalError };
