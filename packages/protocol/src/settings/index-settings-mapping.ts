/**
 * Mappings, index sorting and the index mode (MapperService, FieldMapper, IndexSortConfig,
 * IndexSettings.MODE). The mapping limits are enforced on mapping updates and dynamic
 * mappings; the sort settings are checked against the mappings when the index is created
 * (index-sort.ts).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { BOOL, dyn, final, index, javaEnum, long } from './index-setting-builder.ts';
import type { Setting } from './setting.ts';

const LONG_MAX = '9223372036854775807';

/** IndexSortConfig.parseOrderMode (SortOrder.fromString). */
function sortOrder(value: string): void {
  if (value !== 'asc' && value !== 'desc') throw illegalArgument(`Illegal sort order:${value}`);
}

const MULTI_VALUE_MODES = ['sum', 'avg', 'median', 'min', 'max'];

/** IndexSortConfig.parseMultiValueMode: MultiValueMode.fromString, then only MIN or MAX. */
function sortMode(value: string): void {
  const mode = value.toLowerCase();
  if (!MULTI_VALUE_MODES.includes(mode)) throw illegalArgument(`Illegal sort mode: ${value}`);
  if (mode !== 'min' && mode !== 'max') {
    throw illegalArgument(`Illegal index sort mode:[${mode.toUpperCase()}], must be one of [MAX, MIN]`);
  }
}

/** IndexSortConfig.validateMissingValue. */
function sortMissing(value: string): void {
  if (value !== '_last' && value !== '_first') {
    throw illegalArgument(`Illegal missing value:[${value}], must be one of [_last, _first]`);
  }
}

const MAPPING_LIMITS: readonly Setting[] = [
  index('index.mapping.total_fields.limit', long(0), '1000', dyn),
  index('index.mapping.total_fields.ignore_dynamic_beyond_limit', BOOL, 'false', {
    dynamic: true,
    unsupported: (v) =>
      v === 'true' ? 'ignoring dynamic fields beyond [index.mapping.total_fields.limit]' : undefined,
  }),
  index('index.mapping.depth.limit', long(1), '20', dyn),
  index('index.mapping.nested_fields.limit', long(0), '50', dyn),
  index('index.mapping.nested_objects.limit', long(0), '10000', dyn),
  index('index.mapping.field_name_length.limit', long(1), LONG_MAX, dyn),
  index('index.mapping.dimension_fields.limit', long(0), '32768', dyn),
  index('index.mapping.ignore_malformed', BOOL, 'false'),
  index('index.mapping.coerce', BOOL, 'true'),
  index(
    'index.mapping.source.mode',
    javaEnum(['stored', 'synthetic', 'disabled'], 'org.elasticsearch.index.mapper.SourceFieldMapper.Mode'),
    'stored',
    {
      final: true,
      unsupported: (v) => (v.toLowerCase() === 'stored' ? undefined : `[index.mapping.source.mode] [${v}]`),
    },
  ),
];

const SORT_SETTINGS: readonly Setting[] = [
  index('index.sort.field', { kind: 'list' }, [], final),
  index('index.sort.order', { kind: 'list', element: sortOrder }, [], final),
  index('index.sort.mode', { kind: 'list', element: sortMode }, [], final),
  index('index.sort.missing', { kind: 'list', element: sortMissing }, [], final),
];

/** Time series and logs indices (IndexMode): Shoal has only the standard mode. */
const MODE_SETTINGS: readonly Setting[] = [
  index(
    'index.mode',
    javaEnum(['standard', 'time_series', 'logsdb', 'lookup'], 'org.elasticsearch.index.IndexMode'),
    'standard',
    {
      final: true,
      unsupported: (v) =>
        v.toLowerCase() === 'standard' ? undefined : `[index.mode=${v.toLowerCase()}] indices`,
    },
  ),
  index('index.routing_path', { kind: 'list' }, [], final),
  index('index.time_series.start_time', { kind: 'string' }, '-9999-01-01T00:00:00Z', final),
  index('index.time_series.end_time', { kind: 'string' }, '9999-12-31T23:59:59.999Z', dyn),
];

/** Settings only an index in time_series mode may carry (IndexMode.STANDARD's validation). */
export const TIME_SERIES_ONLY = [
  'index.time_series.start_time',
  'index.time_series.end_time',
  'index.routing_path',
];

export const MAPPING_SETTINGS: readonly Setting[] = [...MAPPING_LIMITS, ...SORT_SETTINGS, ...MODE_SETTINGS];
