/**
 * The storage side of an index (IndexSettings, EngineConfig, MergePolicyConfig,
 * MergeSchedulerConfig, the slow logs, IndexModule's store settings). Shoal applies
 * `index.refresh_interval` and `index.translog.*`; the rest tune parts of Lucene's engine that
 * Shoal's own engine does not have, and are kept and shown as given.
 */
import { availableParallelism } from 'node:os';
import { illegalArgument } from '../errors/catalogue.ts';
import { BOOL, dyn, final, index, int, javaEnum, long, oneOf, THRESHOLD } from './index-setting-builder.ts';
import type { Setting } from './setting.ts';

/** Translog.DEFAULT_HEADER_SIZE_IN_BYTES + 1: the smallest flush and generation thresholds. */
const MIN_TRANSLOG_THRESHOLD = { kind: 'bytes', min: 56 } as const;

/** MergeSchedulerConfig: max(1, min(4, processors / 2)). */
function defaultMergeThreads(): number {
  return Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
}

/** MergePolicyConfig.INDEX_COMPOUND_FORMAT_SETTING: a boolean, a ratio in [0, 1] or a byte size. */
function validateCompoundFormat(value: string): void {
  if (value === 'true' || value === 'false') return;
  if (/^\d+(\.\d+)?$/.test(value)) {
    if (Number(value) <= 1) return;
  } else if (/^\d+(\.\d+)?\s*(b|k|kb|m|mb|g|gb|t|tb|p|pb)$/i.test(value)) {
    return;
  }
  throw illegalArgument(
    `index.compound_format must be a boolean, a non-negative byte size or a ratio in the interval [0..1] but was: [${value}]`,
  );
}

/** IndexingSlowLog's `index.indexing.slowlog.source`: a character count, or a boolean (all / none). */
function validateSlowlogSource(value: string): void {
  if (/^[+-]?\d+$/.test(value)) return;
  if (value !== 'true' && value !== 'false') {
    throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
  }
}

const STORE_TYPES = ['fs', 'niofs', 'mmapfs', 'hybridfs'];

const TRANSLOG_SETTINGS: readonly Setting[] = [
  index(
    'index.translog.durability',
    javaEnum(['request', 'async'], 'org.elasticsearch.index.translog.Translog.Durability'),
    'request',
    dyn,
  ),
  index('index.translog.sync_interval', { kind: 'time', minMs: 100, minText: '100ms' }, '5s', dyn),
  index('index.translog.flush_threshold_size', MIN_TRANSLOG_THRESHOLD, '10gb', dyn),
  index(
    'index.translog.flush_threshold_age',
    { kind: 'time', minMs: 1000, minText: '1s', maxMs: 3_600_000, maxText: '1h' },
    '1m',
    dyn,
  ),
  index('index.translog.generation_threshold_size', MIN_TRANSLOG_THRESHOLD, '64mb', dyn),
  index('index.translog.retention.age', { kind: 'time', minMs: -1, minText: '-1' }, '-1', dyn),
  index('index.translog.retention.size', { kind: 'bytes' }, '-1', dyn),
  index('index.soft_deletes.enabled', BOOL, 'true', final),
  index('index.soft_deletes.retention.operations', long(0), '0', dyn),
  index('index.soft_deletes.retention_lease.period', { kind: 'time', minMs: 0, minText: '0s' }, '12h', dyn),
  index('index.flush_after_merge', { kind: 'bytes', min: 0 }, '512mb', dyn),
  index('index.gc_deletes', { kind: 'time', minMs: -1, minText: '-1' }, '60s', dyn),
  index('index.refresh_interval', { kind: 'time', minMs: -1, minText: '-1' }, '1s', dyn),
];

const MERGE_SETTINGS: readonly Setting[] = [
  index('index.compound_format', { kind: 'string', validate: validateCompoundFormat }, '1gb', dyn),
  index(
    'index.merge.policy.type',
    javaEnum(
      ['unset', 'tiered', 'log_byte_size', 'time_based'],
      'org.elasticsearch.index.MergePolicyConfig.Type',
    ),
    'unset',
  ),
  index('index.merge.policy.expunge_deletes_allowed', { kind: 'double', min: 0 }, '10.0', dyn),
  index('index.merge.policy.floor_segment', { kind: 'bytes' }, '2mb', dyn),
  index('index.merge.policy.max_merge_at_once', int(2), '10', dyn),
  index('index.merge.policy.max_merge_at_once_explicit', int(2), '30', dyn),
  index('index.merge.policy.max_merged_segment', { kind: 'bytes' }, '5gb', dyn),
  index('index.merge.policy.segments_per_tier', { kind: 'double', min: 2 }, '10.0', dyn),
  index('index.merge.policy.deletes_pct_allowed', { kind: 'double', min: 5, max: 50 }, '20.0', dyn),
  index('index.merge.policy.merge_factor', int(2), '32', dyn),
  index('index.merge.scheduler.max_thread_count', int(1), () => String(defaultMergeThreads()), dyn),
  index(
    'index.merge.scheduler.max_merge_count',
    int(1),
    (flat) => {
      const threads = flat['index.merge.scheduler.max_thread_count'];
      const n =
        typeof threads === 'string' && /^\d+$/.test(threads) ? Number(threads) : defaultMergeThreads();
      return String(n + 5);
    },
    dyn,
  ),
  index('index.merge.scheduler.auto_throttle', BOOL, 'true', dyn),
];

const SLOWLOG_LEVELS = ['warn', 'info', 'debug', 'trace'];

const SLOWLOG_SETTINGS: readonly Setting[] = [
  ...SLOWLOG_LEVELS.flatMap((level) => [
    index(`index.search.slowlog.threshold.query.${level}`, THRESHOLD, '-1', dyn),
    index(`index.search.slowlog.threshold.fetch.${level}`, THRESHOLD, '-1', dyn),
    index(`index.indexing.slowlog.threshold.index.${level}`, THRESHOLD, '-1', dyn),
  ]),
  index('index.search.slowlog.include.user', BOOL, 'false', dyn),
  index('index.indexing.slowlog.include.user', BOOL, 'false', dyn),
  index('index.indexing.slowlog.reformat', BOOL, 'true', dyn),
  index('index.indexing.slowlog.source', { kind: 'string', validate: validateSlowlogSource }, '1000', dyn),
];

const STORE_SETTINGS: readonly Setting[] = [
  index(
    'index.codec',
    oneOf(
      ['default', 'best_compression', 'lucene_default', 'legacy_default', 'legacy_best_compression'],
      (v) => `unknown value for [index.codec] must be one of [default, best_compression] but was: ${v}`,
    ),
    'default',
  ),
  index(
    'index.store.type',
    oneOf(['', ...STORE_TYPES], (v) => `Unknown store type [${v}]`),
    '',
  ),
  index('index.store.preload', { kind: 'list' }, [], {}),
  index('index.store.stats_refresh_interval', { kind: 'time' }, '10s', dyn),
  index(
    'index.store.fs.fs_lock',
    oneOf(
      ['native', 'simple'],
      (v) => `unrecognized [index.store.fs.fs_lock] "${v}": must be native or simple`,
    ),
    'native',
  ),
  index(
    'index.shard.check_on_startup',
    oneOf(
      ['false', 'true', 'checksum'],
      (v) =>
        `unknown value for [index.shard.check_on_startup] must be one of [true, false, checksum] but was: ${v}`,
    ),
    'false',
  ),
  index(
    'index.fielddata.cache',
    oneOf(['node', 'none'], (v) => `failed to parse [${v}] must be one of [node,none]`),
    'node',
  ),
  index('index.load_fixed_bitset_filters_eagerly', BOOL, 'true'),
];

export const ENGINE_SETTINGS: readonly Setting[] = [
  ...TRANSLOG_SETTINGS,
  ...MERGE_SETTINGS,
  ...SLOWLOG_SETTINGS,
  ...STORE_SETTINGS,
];
