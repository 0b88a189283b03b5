/**
 * The field types the index keeps in the form of another one: each declares its own mapping
 * parameters (as its Elasticsearch mapper does) and the stored type it behaves as for the query,
 * sort and aggregation side — `binary`, `wildcard`, `constant_keyword` and `flattened` as
 * keyword terms, `match_only_text` as text, `token_count` as an integer, the range types as one
 * encoded term per range (range-values.ts), `dense_vector` as one encoded term per vector
 * (dense-vector.ts), `alias` as its target, `rank_feature` as a float and `rank_features` as
 * keyword terms (its feature names) with a float per feature.
 */
import { illegalArgument, mapperParsing } from '@shoal/protocol';
import { validateDateFormat } from '../dates/index.ts';
import { DENSE_VECTOR_PARAMS, validateDenseVector } from './dense-vector.ts';
import { javaToString } from './java-text.ts';
import {
  analyzerParam,
  type BaseLeafType,
  bool,
  boost,
  docValues,
  eagerGlobalOrdinals,
  index,
  meta,
  nullString,
  type ParamSpec,
  parseInt32,
  restricted,
  similarity,
  store,
  str,
  textAnalyzers,
} from './params.ts';

export const RANGE_TYPE_NAMES = [
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range',
  'ip_range',
] as const;

export type RangeType = (typeof RANGE_TYPE_NAMES)[number];

export const SPECIAL_TYPE_NAMES = [
  'binary',
  'wildcard',
  'constant_keyword',
  'match_only_text',
  'search_as_you_type',
  'token_count',
  'flattened',
  'alias',
  'unsigned_long',
  'dense_vector',
  'rank_feature',
  'rank_features',
  ...RANGE_TYPE_NAMES,
] as const;

export type SpecialType = (typeof SPECIAL_TYPE_NAMES)[number];

const SPECIAL: ReadonlySet<string> = new Set(SPECIAL_TYPE_NAMES);
const RANGES: ReadonlySet<string> = new Set(RANGE_TYPE_NAMES);

export function isSpecialType(type: string): type is SpecialType {
  return SPECIAL.has(type);
}

export function isRangeType(type: string): type is RangeType {
  return RANGES.has(type);
}

/** The stored type a declared type behaves as. */
export function storedTypeOf(type: BaseLeafType | SpecialType): BaseLeafType {
  if (!isSpecialType(type)) return type;
  switch (type) {
    case 'match_only_text':
    case 'search_as_you_type':
      return 'text';
    case 'token_count':
      return 'integer';
    case 'unsigned_long':
      return 'long';
    // A rank_feature keeps its value (1/value for a negative score impact) as a float;
    // rank_features keeps its feature names as terms, and each feature's value as a float
    // under `field.feature` (special-values.ts).
    case 'rank_feature':
      return 'float';
    default:
      return 'keyword';
  }
}

const ignoreAbove: ParamSpec = {
  name: 'ignore_above',
  defaultValue: () => 2147483647,
  updatable: true,
  parse: (v) => {
    const n = parseInt32(v);
    if (n < 0) throw illegalArgument(`[ignore_above] must be positive, got [${n}]`);
    return n;
  },
};

/** constant_keyword's `value`: set once (by the mapping or the first document), then fixed. */
const constantValue: ParamSpec = {
  name: 'value',
  defaultValue: () => undefined,
  updatable: (prev, next) => prev === undefined || prev === next,
  parse: (v) => {
    if (typeof v === 'object' && v !== null) {
      throw mapperParsing(
        `Property [value] on field [${javaToString(v)}] must be a number or a string, but got [${javaToString(v)}]`,
      );
    }
    return str(v);
  },
};

const tokenCountNull: ParamSpec = {
  name: 'null_value',
  defaultValue: () => null,
  updatable: false,
  acceptsNull: true,
  parse: (v) => (v === null ? null : parseInt32(v)),
};

/** rank_feature's null_value (8.9): the value a null stands for, a positive normal float. */
const rankFeatureNull: ParamSpec = {
  name: 'null_value',
  defaultValue: () => null,
  updatable: false,
  acceptsNull: true,
  parse: (v) => {
    if (v === null) return null;
    const n = typeof v === 'number' ? v : Number(str(v));
    if (!(Math.fround(n) >= 1.1754943508222875e-38) || !Number.isFinite(Math.fround(n)))
      throw illegalArgument('[null_value] must be a positive normal float for field of type [rank_feature]');
    return n;
  },
};

const aliasPath: ParamSpec = {
  name: 'path',
  defaultValue: () => undefined,
  updatable: true,
  parse: str,
};

const depthLimit: ParamSpec = {
  name: 'depth_limit',
  defaultValue: () => 20,
  updatable: true,
  parse: (v) => {
    const n = parseInt32(v);
    if (n < 0) throw illegalArgument(`[depth_limit] must be positive, got [${n}]`);
    return n;
  },
};

const rangeFormat: ParamSpec = {
  name: 'format',
  defaultValue: () => 'strict_date_optional_time||epoch_millis',
  updatable: false,
  parse: (v) => {
    const s = str(v);
    validateDateFormat(s);
    return s;
  },
};

function rangeParams(date: boolean): ParamSpec[] {
  const out = [index, docValues, store, bool('coerce', true, true, true)];
  if (date)
    out.push(rangeFormat, { name: 'locale', defaultValue: () => 'ENGLISH', updatable: false, parse: str });
  out.push(boost, meta);
  return out;
}

export const SPECIAL_PARAMS: Readonly<Record<SpecialType, ParamSpec[]>> = {
  binary: [meta, store, bool('doc_values', false, false)],
  wildcard: [ignoreAbove, nullString, meta],
  constant_keyword: [constantValue, meta],
  match_only_text: [meta],
  search_as_you_type: [
    index,
    store,
    restricted('index_options', ['positions', 'docs', 'freqs', 'offsets'], false),
    bool('norms', true, false),
    ...textAnalyzers,
    similarity,
    {
      name: 'max_shingle_size',
      defaultValue: () => 3,
      updatable: false,
      parse: (v) => {
        const n = parseInt32(v);
        if (n < 2 || n > 4) {
          throw mapperParsing(`[max_shingle_size] must be at least [2] and at most [4], got [${n}]`);
        }
        return n;
      },
    },
    meta,
  ],
  token_count: [
    index,
    docValues,
    store,
    analyzerParam('analyzer', () => undefined, false),
    tokenCountNull,
    bool('enable_position_increments', true, false),
    boost,
    meta,
  ],
  flattened: [
    depthLimit,
    docValues,
    eagerGlobalOrdinals,
    ignoreAbove,
    index,
    restricted('index_options', ['docs', 'freqs'], false),
    nullString,
    similarity,
    bool('split_queries_on_whitespace', false, true),
    meta,
  ],
  alias: [aliasPath],
  rank_feature: [bool('positive_score_impact', true, false), rankFeatureNull, meta],
  rank_features: [bool('positive_score_impact', true, false), meta],
  unsigned_long: [
    index,
    docValues,
    store,
    bool('ignore_malformed', false, true, true),
    { name: 'null_value', defaultValue: () => null, updatable: false, acceptsNull: true, parse: (v) => v },
    meta,
  ],
  integer_range: rangeParams(false),
  long_range: rangeParams(false),
  float_range: rangeParams(false),
  double_range: rangeParams(false),
  date_range: rangeParams(true),
  ip_range: rangeParams(false),
  dense_vector: DENSE_VECTOR_PARAMS,
};

/** Checks that need the whole field definition (required parameters). */
export function validateSpecialField(name: string, type: SpecialType, params: Record<string, unknown>): void {
  if (type === 'token_count' && params.analyzer === undefined) {
    throw illegalArgument(`Analyzer must be set for field [${name}] but wasn't.`);
  }
  if (type === 'dense_vector') validateDenseVector(name, params);
  if (type === 'alias' && params.path === undefined) {
    throw mapperParsing(`The [path] property must be specified for field [${name}].`);
  }
}
