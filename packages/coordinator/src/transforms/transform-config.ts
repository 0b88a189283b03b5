/**
 * A transform's configuration (Elasticsearch's TransformConfig): parsed strictly from a `PUT
 * /_transform/{id}` or `_preview` body, checked as TransformConfig.validate does, merged with
 * an `_update` body, and written back in the shape `GET /_transform` shows.
 */
import {
  actionRequestValidation,
  illegalArgument,
  invalidIndexNameReason,
  parseTimeValue,
  xContentParse,
} from '@shoal/protocol';
import { type LatestConfig, parseLatest } from './latest-config.ts';
import { type PivotConfig, parsePivot } from './pivot-config.ts';
import { type BodyReader, objectAt } from './strict-body.ts';

/** The version a transform records as created with (the Elasticsearch version Shoal answers as). */
export const TRANSFORM_CONFIG_VERSION = '10.0.0';

export interface SyncConfig {
  field: string;
  delayMs: number;
  /** As given (`90m`), for GET. */
  delay: string;
}

/** `dest.aliases`: set on the destination when a start creates it; `move_on_creation` takes the alias off other indices. */
export interface DestAlias {
  alias: string;
  move_on_creation: boolean;
}

export interface TransformSettings {
  maxPageSearchSize?: number;
  docsPerSecond?: number;
  deduceMappings?: boolean;
  numFailureRetries?: number;
  /** Checkpoint ranges aligned to date_histogram buckets: a speed hint, results are the same. */
  alignCheckpoints?: boolean;
  /** date_histogram group keys as epoch milliseconds instead of formatted dates. */
  datesAsEpochMillis?: boolean;
  /** Pages read through a point in time: how Shoal pages anyway, so a hint only. */
  usePointInTime?: boolean;
  /** Start without validation, retry every failure, never fail. */
  unattended?: boolean;
}

export interface RetentionPolicy {
  field: string;
  maxAgeMs: number;
  maxAge: string;
}

export interface TransformConfig {
  id: string;
  source: { index: string[]; query: Record<string, unknown>; runtimeMappings?: Record<string, unknown> };
  dest: { index: string; pipeline?: string; aliases?: DestAlias[] };
  frequency?: string;
  sync?: SyncConfig;
  pivot?: PivotConfig;
  latest?: LatestConfig;
  description?: string;
  settings: TransformSettings;
  meta?: Record<string, unknown>;
  retentionPolicy?: RetentionPolicy;
  version: string;
  createTime: number;
}

const DEFAULT_FREQUENCY_MS = 60_000;
const DEFAULT_DELAY = '60s';
const ID_PATTERN = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;
const MAX_ID_LENGTH = 64;

/** Transform ids: DataFrameStrings.isValidId and the 64-character limit. */
export function validateTransformId(id: string): void {
  const problems: string[] = [];
  if (!ID_PATTERN.test(id)) {
    problems.push(
      `Invalid transform_id; '${id}' can contain lowercase alphanumeric (a-z and 0-9), hyphens or underscores; must start and end with alphanumeric`,
    );
  }
  if (id.length > MAX_ID_LENGTH)
    problems.push(`The id cannot contain more than ${MAX_ID_LENGTH} characters.`);
  if (problems.length > 0) throw actionRequestValidation(problems);
}

export function frequencyMs(c: TransformConfig): number {
  return c.frequency === undefined ? DEFAULT_FREQUENCY_MS : parseTimeValue(c.frequency, 'frequency');
}

export function isContinuous(c: TransformConfig): boolean {
  return c.sync !== undefined;
}

/** `settings.max_page_search_size`, else the deprecated `pivot.max_page_search_size`, else 500. */
export function pageSize(c: TransformConfig): number {
  return c.settings.maxPageSearchSize ?? c.pivot?.maxPageSearchSize ?? 500;
}

function readSource(r: BodyReader, v: unknown): TransformConfig['source'] {
  const o = objectAt('data_frame_config_source', v);
  r.known('data_frame_config_source', o, ['index', 'query', 'runtime_mappings']);
  const idx = o.index;
  const index = (Array.isArray(idx) ? idx : typeof idx === 'string' ? idx.split(',') : []).map(String);
  if (idx === undefined) throw illegalArgument('Required [index]');
  if (index.length === 0 || index.some((i) => i === '')) {
    throw actionRequestValidation(['source.index must not be empty']);
  }
  const query = o.query === undefined ? { match_all: {} } : objectAt('query', o.query);
  const out: TransformConfig['source'] = { index, query };
  if (o.runtime_mappings !== undefined)
    out.runtimeMappings = objectAt('runtime_mappings', o.runtime_mappings);
  return out;
}

function readDest(r: BodyReader, v: unknown, forPreview: boolean): TransformConfig['dest'] {
  const o = objectAt('data_frame_config_dest', v);
  r.known('data_frame_config_dest', o, ['index', 'pipeline', 'aliases']);
  if (o.index === undefined && !forPreview) throw illegalArgument('Required [index]');
  const out: TransformConfig['dest'] = { index: o.index === undefined ? '' : String(o.index) };
  if (o.pipeline !== undefined) out.pipeline = String(o.pipeline);
  if (o.aliases !== undefined) {
    if (!Array.isArray(o.aliases)) throw illegalArgument('[dest.aliases] must be an array');
    out.aliases = o.aliases.map((a) => {
      const e = objectAt('data_frame_config_dest_alias', a);
      r.known('data_frame_config_dest_alias', e, ['alias', 'move_on_creation']);
      if (typeof e.alias !== 'string' || e.alias === '') throw illegalArgument('Required [alias]');
      return { alias: e.alias, move_on_creation: e.move_on_creation === true };
    });
  }
  return out;
}

function readSync(r: BodyReader, v: unknown): SyncConfig {
  const o = objectAt('sync', v);
  r.known('sync', o, ['time']);
  if (o.time === undefined) throw illegalArgument('Required one of fields [time], but none were specified.');
  const t = objectAt('sync_time', o.time);
  r.known('sync_time', t, ['field', 'delay']);
  if (typeof t.field !== 'string' || t.field === '') throw illegalArgument('Required [field]');
  const delay = t.delay === undefined ? DEFAULT_DELAY : String(t.delay);
  return { field: t.field, delay, delayMs: parseTimeValue(delay, 'delay') };
}

function readRetention(r: BodyReader, v: unknown): RetentionPolicy {
  const o = objectAt('retention_policy', v);
  r.known('retention_policy', o, ['time']);
  if (o.time === undefined) throw illegalArgument('Required one of fields [time], but none were specified.');
  const t = objectAt('retention_policy_time', o.time);
  r.known('retention_policy_time', t, ['field', 'max_age']);
  if (typeof t.field !== 'string' || t.field === '') throw illegalArgument('Required [field]');
  if (t.max_age === undefined) throw illegalArgument('Required [max_age]');
  const maxAge = String(t.max_age);
  const maxAgeMs = parseTimeValue(maxAge, 'max_age');
  if (maxAgeMs < 60_000) {
    throw actionRequestValidation([
      `retention_policy.time.max_age must be greater than 60s, found [${maxAge}]`,
    ]);
  }
  return { field: t.field, maxAge, maxAgeMs };
}

const SETTING_KEYS = [
  'max_page_search_size',
  'docs_per_second',
  'dates_as_epoch_millis',
  'align_checkpoints',
  'use_point_in_time',
  'deduce_mappings',
  'num_failure_retries',
  'unattended',
];

/** SettingsConfig: a `null` resets a setting to its default (on `_update`). */
export function readSettings(r: BodyReader, v: unknown, base: TransformSettings = {}): TransformSettings {
  const o = objectAt('transform_config_settings', v);
  r.known('transform_config_settings', o, SETTING_KEYS);
  const out: TransformSettings = { ...base };
  const num = (k: string): number | null | undefined => {
    const x = o[k];
    if (x === undefined || x === null) return x;
    if (typeof x !== 'number') throw illegalArgument(`[${k}] must be a number, found [${String(x)}]`);
    return x;
  };
  const bool = (k: string): boolean | null | undefined => {
    const x = o[k];
    if (x === undefined || x === null) return x;
    if (typeof x !== 'boolean') throw illegalArgument(`[${k}] must be a boolean, found [${String(x)}]`);
    return x;
  };
  const set = <K extends keyof TransformSettings>(key: K, x: TransformSettings[K] | null | undefined) => {
    if (x === null) delete out[key];
    else if (x !== undefined) out[key] = x;
  };
  set('maxPageSearchSize', num('max_page_search_size'));
  set('docsPerSecond', num('docs_per_second'));
  set('numFailureRetries', num('num_failure_retries'));
  set('deduceMappings', bool('deduce_mappings'));
  set('alignCheckpoints', bool('align_checkpoints'));
  set('datesAsEpochMillis', bool('dates_as_epoch_millis'));
  set('usePointInTime', bool('use_point_in_time'));
  set('unattended', bool('unattended'));
  return out;
}

/** SettingsConfig.validate. */
function settingsProblems(s: TransformSettings): string[] {
  const out: string[] = [];
  const size = s.maxPageSearchSize;
  if (size !== undefined && (size < 10 || size > 65536)) {
    out.push(
      `settings.max_page_search_size [${size}] is out of range. The minimum value is 10 and the maximum is 65536`,
    );
  }
  const retries = s.numFailureRetries;
  if (retries !== undefined && (retries < -1 || retries > 100)) {
    out.push(
      `settings.num_failure_retries [${retries}] is out of range. The minimum value is -1 (infinity) and the maximum is 100`,
    );
  }
  if (s.docsPerSecond !== undefined && s.docsPerSecond <= 0) {
    out.push(`settings.docs_per_second [${s.docsPerSecond}] must be greater than 0`);
  }
  return out;
}

function checkFrequency(frequency: string): void {
  const ms = parseTimeValue(frequency, 'frequency');
  if (ms < 1000) throw actionRequestValidation(['minimum permitted [frequency] is [1s]']);
  if (ms > 3_600_000) throw actionRequestValidation(['highest permitted [frequency] is [1h]']);
}

const TOP_KEYS = [
  'id',
  'source',
  'dest',
  'frequency',
  'sync',
  'pivot',
  'latest',
  'description',
  'settings',
  '_meta',
  'retention_policy',
];

/**
 * Parses a whole configuration. `forPreview`: `dest` may be left out (a preview writes
 * nothing). Deprecation warnings go to `warnings`.
 */
export function parseTransformConfig(
  r: BodyReader,
  id: string,
  body: unknown,
  warnings: string[],
  opts: { forPreview?: boolean; now: number },
): TransformConfig {
  const o = objectAt('data_frame_transform_config', body);
  for (const k of ['create_time', 'version']) {
    if (k in o) {
      const at = r.locate(k);
      throw xContentParse(at.line, at.col, `Found [${k}], not allowed for strict parsing`);
    }
  }
  r.known('data_frame_transform_config', o, TOP_KEYS);
  if (o.id !== undefined && o.id !== id) {
    throw illegalArgument(
      `Inconsistent id; '${String(o.id)}' specified in the body differs from '${id}' specified as a URL argument`,
    );
  }
  if (o.source === undefined) throw illegalArgument('Required [source]');
  const config: TransformConfig = {
    id,
    source: readSource(r, o.source),
    dest:
      o.dest === undefined && opts.forPreview ? { index: '' } : readDest(r, o.dest, opts.forPreview === true),
    settings: o.settings === undefined ? {} : readSettings(r, o.settings),
    version: TRANSFORM_CONFIG_VERSION,
    createTime: opts.now,
  };
  if (o.dest === undefined && !opts.forPreview) throw illegalArgument('Required [dest]');
  if (o.frequency !== undefined) config.frequency = String(o.frequency);
  if (o.sync !== undefined) config.sync = readSync(r, o.sync);
  if (o.pivot !== undefined) config.pivot = parsePivot(r, o.pivot, warnings);
  if (o.latest !== undefined) config.latest = parseLatest(r, o.latest);
  if (o.description !== undefined) config.description = String(o.description);
  if (o._meta !== undefined) config.meta = objectAt('_meta', o._meta);
  if (o.retention_policy !== undefined) config.retentionPolicy = readRetention(r, o.retention_policy);
  validateConfig(config);
  return config;
}

/** TransformConfig.validate: the checks that need no cluster. */
export function validateConfig(c: TransformConfig): void {
  if ((c.pivot === undefined) === (c.latest === undefined)) {
    throw illegalArgument('Transform configuration must specify exactly 1 function');
  }
  if (c.frequency !== undefined) checkFrequency(c.frequency);
  const problems = settingsProblems(c.settings);
  if (c.dest.index !== '' && c.dest.index !== c.dest.index.toLowerCase()) {
    problems.push(`Destination index [${c.dest.index}] must be lowercase`);
  }
  if (problems.length > 0) throw actionRequestValidation(problems);
  if (c.dest.index !== '') {
    const reason = invalidIndexNameReason(c.dest.index);
    if (reason !== undefined)
      throw actionRequestValidation([`Invalid index name [${c.dest.index}], ${reason}`]);
  }
}

/** `GET /_transform` (TransformConfig.toXContent); `excludeGenerated` drops what the node set. */
export function configJson(c: TransformConfig, excludeGenerated = false): Record<string, unknown> {
  const out: Record<string, unknown> = { id: c.id };
  if (!excludeGenerated) {
    out.version = c.version;
    out.create_time = c.createTime;
  }
  const source: Record<string, unknown> = { index: c.source.index, query: c.source.query };
  if (c.source.runtimeMappings) source.runtime_mappings = c.source.runtimeMappings;
  out.source = source;
  const dest: Record<string, unknown> = { index: c.dest.index };
  if (c.dest.aliases) dest.aliases = c.dest.aliases;
  if (c.dest.pipeline !== undefined) dest.pipeline = c.dest.pipeline;
  out.dest = dest;
  if (c.frequency !== undefined) out.frequency = c.frequency;
  if (c.sync) out.sync = { time: { field: c.sync.field, delay: c.sync.delay } };
  if (c.pivot) out.pivot = c.pivot.json;
  if (c.latest) out.latest = c.latest.json;
  if (c.description !== undefined) out.description = c.description;
  out.settings = settingsJson(c.settings);
  if (c.meta) out._meta = c.meta;
  if (c.retentionPolicy) {
    out.retention_policy = { time: { field: c.retentionPolicy.field, max_age: c.retentionPolicy.maxAge } };
  }
  return out;
}

export function settingsJson(s: TransformSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.maxPageSearchSize !== undefined) out.max_page_search_size = s.maxPageSearchSize;
  if (s.docsPerSecond !== undefined) out.docs_per_second = s.docsPerSecond;
  if (s.datesAsEpochMillis !== undefined) out.dates_as_epoch_millis = s.datesAsEpochMillis;
  if (s.alignCheckpoints !== undefined) out.align_checkpoints = s.alignCheckpoints;
  if (s.usePointInTime !== undefined) out.use_point_in_time = s.usePointInTime;
  if (s.deduceMappings !== undefined) out.deduce_mappings = s.deduceMappings;
  if (s.numFailureRetries !== undefined) out.num_failure_retries = s.numFailureRetries;
  if (s.unattended !== undefined) out.unattended = s.unattended;
  return out;
}
