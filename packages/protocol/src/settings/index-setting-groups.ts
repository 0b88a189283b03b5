/**
 * Index setting families under a prefix (Elasticsearch's group and prefix-key affix settings).
 * A key with a declared setting of its own (`index.routing.allocation.include._tier_preference`)
 * is that setting, not a member of the family.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { listValues, type SettingGroup, type SettingValue } from './setting.ts';

const IP_ATTRIBUTES = new Set(['_ip', '_host_ip', '_publish_ip']);

/** An IPv4 or IPv6 literal (InetAddresses.isInetAddress). */
function isInetAddress(s: string): boolean {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(s))
    return s.split('.').every((p) => Number(p) <= 255);
  return s.includes(':') && /^[0-9a-fA-F:.]+(%\w+)?$/.test(s) && s.split('::').length <= 2;
}

/**
 * DiscoveryNodeFilters.validateIpValue: the `_ip`, `_host_ip` and `_publish_ip` filters take IP
 * addresses or wildcard patterns; other node attributes take any values.
 */
function validateAllocationFilter(key: string, value: SettingValue): void {
  const attribute = key.slice(key.lastIndexOf('.') + 1);
  if (!IP_ATTRIBUTES.has(attribute)) return;
  for (const v of listValues(value)) {
    if (!v.includes('*') && !isInetAddress(v))
      throw illegalArgument(`invalid IP address [${v}] for [${attribute}]`);
  }
}

/** SimilarityService.BUILT_IN: these names may not be redefined under `index.similarity.`. */
const BUILT_IN_SIMILARITIES = ['BM25', 'boolean'];

function validateSimilarity(key: string): void {
  const name = key.slice('index.similarity.'.length).split('.')[0]!;
  if (BUILT_IN_SIMILARITIES.includes(name))
    throw illegalArgument(`illegal value for [index.similarity.${name}] cannot redefine built-in similarity`);
}

export const INDEX_SETTING_GROUPS: readonly SettingGroup[] = [
  { prefix: 'index.analysis.', scope: 'index', dynamic: false },
  { prefix: 'index.similarity.', scope: 'index', dynamic: false, validate: validateSimilarity },
  ...['include', 'exclude', 'require'].map(
    (kind): SettingGroup => ({
      prefix: `index.routing.allocation.${kind}.`,
      scope: 'index',
      dynamic: true,
      validate: validateAllocationFilter,
    }),
  ),
];
