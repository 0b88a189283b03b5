/**
 * Cluster (dynamic node) and node settings, declared once (SearchService, AutoCreateIndex,
 * EnableAllocationDecider, coordination; changes78.md §5.3 and §8).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { parseTimeValue } from '../values/time-value.ts';
import type { Setting } from './setting.ts';

function cluster(key: string, type: Setting['type'], def: Setting['default'], dynamic = true): Setting {
  return { key, type, default: def, scope: 'cluster', dynamic };
}

/** One `action.auto_create_index` expression: an index pattern, included (`+`/none) or excluded (`-`). */
export interface AutoCreateExpression {
  pattern: string;
  include: boolean;
}

/**
 * AutoCreateIndex.AutoCreate: `true`, `false`, or a comma list like `+logs-*,-secret*,other`.
 * Returns a boolean or the expressions in order.
 */
export function parseAutoCreateIndex(value: string): boolean | AutoCreateExpression[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  const prefix = `Can't parse [${value}] for setting [action.auto_create_index]`;
  return value.split(',').map((raw) => {
    const p = raw.trim();
    if (p.length === 0) {
      throw illegalArgument(
        `${prefix} must be either [true, false, or a comma separated list of index patterns]`,
      );
    }
    if (p.startsWith('-') || p.startsWith('+')) {
      if (p.length === 1) throw illegalArgument(`${prefix} must contain an index name after [${p}]`);
      return { pattern: p.slice(1), include: p.startsWith('+') };
    }
    return { pattern: p, include: true };
  });
}

/**
 * Whether an index may be auto-created under `action.auto_create_index`. When it may not, the
 * reason completes Elasticsearch's `no such index [<index>] and <reason>` (IndexNotFoundException).
 * The first matching expression decides; no match forbids.
 */
export function autoCreateDecision(
  value: string,
  index: string,
): { allowed: true } | { allowed: false; reason: string } {
  const parsed = parseAutoCreateIndex(value);
  if (parsed === true) return { allowed: true };
  if (parsed === false) return { allowed: false, reason: '[action.auto_create_index] is [false]' };
  for (const e of parsed) {
    if (simpleMatch(e.pattern, index)) {
      if (e.include) return { allowed: true };
      return {
        allowed: false,
        reason: `[action.auto_create_index] contains [-${e.pattern}] which forbids automatic creation of the index`,
      };
    }
  }
  return { allowed: false, reason: `[action.auto_create_index] ([${value}]) doesn't match` };
}

/** Regex.simpleMatch: `*` matches any run of characters, nothing else is special. */
export function simpleMatch(pattern: string, s: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === s;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!s.startsWith(first) || s.length < first.length + last.length || !s.endsWith(last)) return false;
  let at = first.length;
  const end = s.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const found = s.indexOf(parts[k]!, at);
    if (found === -1 || found + parts[k]!.length > end) return false;
    at = found + parts[k]!.length;
  }
  return true;
}

/**
 * ScriptService's `script.max_compilations_rate`: `N/time`, a positive count over at least a
 * minute (or `unlimited`).
 */
export function parseCompilationRate(value: string): { count: number; perMs: number } {
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    throw illegalArgument(
      `parameter must contain a positive integer and a timevalue, i.e. 10/1m, but was [${value}]`,
    );
  }
  const countText = value.slice(0, slash);
  const time = value.slice(slash + 1);
  const count = Number(countText);
  if (!/^-?\d+$/.test(countText)) {
    throw illegalArgument(`could not parse [${countText}] as integer in value [${value}]`);
  }
  if (count < 0) throw illegalArgument(`rate [${count}] must be positive`);
  const perMs = parseTimeValue(time, 'script.max_compilations_rate');
  if (perMs <= 0) throw illegalArgument(`time value [${time}] must be positive`);
  if (perMs < 60_000)
    throw illegalArgument(`time value [${time}] must be at least on a one minute resolution`);
  return { count, perMs };
}

const ALLOCATION_ENABLE = ['all', 'primaries', 'new_primaries', 'none'];

/** Features whose `ext.<feature>.enabled` was deprecated and made a no-op in 7.8 (changes78.md §5.3). */
const DEPRECATED_FEATURE_FLAGS = [
  'enrich',
  'flattened',
  'ilm',
  'monitoring',
  'rollup',
  'slm',
  'sql',
  'transform',
  'vectors',
];

export const CLUSTER_SETTINGS: readonly Setting[] = [
  cluster(
    'action.auto_create_index',
    { kind: 'string', validate: (v) => void parseAutoCreateIndex(v) },
    'true',
  ),
  cluster('action.destructive_requires_name', { kind: 'bool' }, 'true'),
  cluster('search.max_open_scroll_context', { kind: 'int', min: 0 }, '500'),
  cluster('search.max_buckets', { kind: 'int', min: 0 }, '65536'),
  cluster('search.default_keep_alive', { kind: 'time', minMs: 0 }, '5m'),
  cluster('search.max_keep_alive', { kind: 'time', minMs: 0 }, '24h'),
  cluster('search.default_allow_partial_results', { kind: 'bool' }, 'true'),
  cluster(
    'cluster.routing.allocation.enable',
    { kind: 'enum', values: ALLOCATION_ENABLE, invalid: (v) => `Illegal allocation.enable value [${v}]` },
    'all',
  ),
  cluster(
    'script.max_compilations_rate',
    { kind: 'string', validate: (v) => void (v === 'unlimited' || parseCompilationRate(v)) },
    '150/5m',
  ),
  cluster('cluster.max_voting_config_exclusions', { kind: 'int', min: 1 }, '10'),
  cluster('cluster.auto_shrink_voting_configuration', { kind: 'bool' }, 'true'),
  {
    key: 'search.keep_alive_interval',
    type: { kind: 'time', minMs: 0 },
    default: '1m',
    scope: 'node',
    dynamic: false,
  },
  {
    key: 'node.local_storage',
    type: { kind: 'bool' },
    default: 'true',
    scope: 'node',
    dynamic: false,
    deprecated: true,
  },
  ...DEPRECATED_FEATURE_FLAGS.map(
    (f): Setting => ({
      key: `ext.${f}.enabled`,
      type: { kind: 'bool' },
      default: 'true',
      scope: 'node',
      dynamic: false,
      deprecated: true,
    }),
  ),
  {
    // New in 7.8 (Watcher's USE_ILM_INDEX_MANAGEMENT): defaults to `ext.ilm.enabled`.
    key: 'ext.watcher.use_ilm_index_management',
    type: { kind: 'bool' },
    default: (flat) => flat['ext.ilm.enabled'] ?? 'true',
    scope: 'node',
    dynamic: false,
  },
];
