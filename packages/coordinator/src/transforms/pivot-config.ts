/**
 * The `pivot` function's configuration (PivotConfig, GroupConfig, AggregationConfig): the
 * `group_by` sources — `terms`, `histogram`, `date_histogram`, `geotile_grid`, each one
 * composite source — and the aggregations, each written as a field of the destination document.
 */
import { actionRequestValidation, illegalArgument, parseTimeValue } from '@shoal/protocol';
import { type BodyReader, objectAt } from './strict-body.ts';

export type GroupSourceType = 'terms' | 'histogram' | 'date_histogram' | 'geotile_grid';

export interface GroupSource {
  name: string;
  type: GroupSourceType;
  field?: string;
  /** The source's body as given (the composite source body Shoal searches with). */
  body: Record<string, unknown>;
}

export interface PivotConfig {
  groups: GroupSource[];
  /** Aggregation name → its body, as given. */
  aggregations: Record<string, Record<string, unknown>>;
  /** Deprecated: `settings.max_page_search_size` replaces it. */
  maxPageSearchSize?: number;
  /** As `GET /_transform` shows it. */
  json: Record<string, unknown>;
}

/** Pivot's deprecation message, as Elasticsearch 7.8 words it. */
export const PIVOT_PAGE_SIZE_DEPRECATION =
  '[max_page_search_size] is deprecated inside pivot please use settings instead';

const GROUP_KEYS: Record<GroupSourceType, string[]> = {
  terms: ['field', 'script', 'missing_bucket'],
  histogram: ['field', 'script', 'missing_bucket', 'interval'],
  date_histogram: [
    'field',
    'script',
    'missing_bucket',
    'calendar_interval',
    'fixed_interval',
    'interval',
    'time_zone',
    'offset',
  ],
  geotile_grid: ['field', 'missing_bucket', 'precision', 'bounds'],
};

/** The aggregation types a transform may write (TransformAggregations' supported list, as far as Shoal has them). */
const SUPPORTED_AGGS = new Set([
  'avg',
  'sum',
  'min',
  'max',
  'value_count',
  'cardinality',
  'stats',
  'extended_stats',
  'geo_bounds',
  'geo_centroid',
  'terms',
  'range',
  'date_range',
  'filter',
  'filters',
  'missing',
  'percentiles',
  'weighted_avg',
  'median_absolute_deviation',
  'top_metrics',
  'scripted_metric',
  'bucket_script',
  'bucket_selector',
  'rare_terms',
  'boxplot',
]);

function readGroup(r: BodyReader, name: string, v: unknown): GroupSource {
  const o = objectAt('group_by', v);
  const types = Object.keys(o);
  if (types.length !== 1) throw illegalArgument(`[group_by] [${name}] must name exactly one group source`);
  const type = types[0]!;
  if (!(type in GROUP_KEYS)) {
    throw illegalArgument(`[group_by] unknown group source type [${type}] for [${name}]`);
  }
  const t = type as GroupSourceType;
  const body = objectAt(`data_frame_${t}_group`, o[type]);
  r.known(`data_frame_${t}_group`, body, GROUP_KEYS[t]);
  if (body.field === undefined && body.script === undefined) {
    throw actionRequestValidation([`Required one of fields [field, script], but none were specified.`]);
  }
  if (t === 'histogram' && body.interval === undefined) throw illegalArgument('Required [interval]');
  if (t === 'date_histogram') {
    const given = ['calendar_interval', 'fixed_interval', 'interval'].filter((k) => body[k] !== undefined);
    if (given.length === 0)
      throw illegalArgument('Invalid interval specified, must be non-null and non-empty');
    if (given.length > 1)
      throw illegalArgument('Cannot use [fixed_interval] with [calendar_interval] configuration option.');
    if (body.fixed_interval !== undefined) parseTimeValue(String(body.fixed_interval), 'fixed_interval');
  }
  const out: GroupSource = { name, type: t, body };
  if (typeof body.field === 'string') out.field = body.field;
  return out;
}

function aggsOf(o: Record<string, unknown>): Record<string, Record<string, unknown>> {
  if (o.aggregations !== undefined && o.aggs !== undefined) {
    throw illegalArgument('Found two aggregation definitions: [aggs] and [aggregations]');
  }
  const raw = o.aggregations ?? o.aggs;
  if (raw === undefined)
    throw illegalArgument('Pivot transform configuration must specify at least 1 aggregation');
  const aggs = objectAt('aggregations', raw);
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, body] of Object.entries(aggs)) {
    const b = objectAt(name, body);
    const type = Object.keys(b).find((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta');
    if (type !== undefined && !SUPPORTED_AGGS.has(type)) {
      throw illegalArgument(`Unsupported aggregation type [${type}]`);
    }
    out[name] = b;
  }
  return out;
}

/** PivotConfig.aggFieldValidation: no two output fields may collide, nor one be the other's parent. */
function outputFieldProblems(names: string[]): string[] {
  const sorted = [...names].sort();
  const problems: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (prev === cur) problems.push(`duplicate field [${cur}] detected`);
    else if (cur.startsWith(`${prev}.`))
      problems.push(`field [${prev}] cannot be both an object and a field`);
  }
  return problems;
}

export function parsePivot(r: BodyReader, v: unknown, warnings: string[]): PivotConfig {
  const o = objectAt('data_frame_transform_pivot', v);
  r.known('data_frame_transform_pivot', o, ['group_by', 'aggregations', 'aggs', 'max_page_search_size']);
  if (o.group_by === undefined) throw illegalArgument('Required [group_by]');
  const groupBy = objectAt('group_by', o.group_by);
  const groups = Object.entries(groupBy).map(([name, g]) => readGroup(r, name, g));
  if (groups.length === 0)
    throw illegalArgument('Pivot transform configuration must specify at least 1 group_by');
  const aggregations = aggsOf(o);
  const pivot: PivotConfig = {
    groups,
    aggregations,
    json: { group_by: groupBy, aggregations },
  };
  if (o.max_page_search_size !== undefined) {
    warnings.push(PIVOT_PAGE_SIZE_DEPRECATION);
    const size = Number(o.max_page_search_size);
    if (!Number.isInteger(size) || size < 10 || size > 65536) {
      throw actionRequestValidation([
        `pivot.max_page_search_size [${String(o.max_page_search_size)}] is out of range. The minimum value is 10 and the maximum is 65536`,
      ]);
    }
    pivot.maxPageSearchSize = size;
    pivot.json.max_page_search_size = size;
  }
  const problems = outputFieldProblems([...groups.map((g) => g.name), ...Object.keys(aggregations)]);
  if (problems.length > 0) throw actionRequestValidation(problems);
  return pivot;
}
