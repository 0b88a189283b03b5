/** Lookup over every declared setting, by key and by scope. */
import { similarKeys } from '../values/similarity.ts';
import { CLUSTER_SETTINGS } from './cluster-settings.ts';
import { INDEX_SETTING_GROUPS, INDEX_SETTINGS } from './index-settings.ts';
import { SECURITY_SETTING_GROUPS, SECURITY_SETTINGS } from './security-settings.ts';
import type { Setting, SettingGroup, SettingScope } from './setting.ts';

const BY_KEY = new Map<string, Setting>();
for (const s of [...INDEX_SETTINGS, ...CLUSTER_SETTINGS, ...SECURITY_SETTINGS]) BY_KEY.set(s.key, s);
const GROUPS: readonly SettingGroup[] = [...INDEX_SETTING_GROUPS, ...SECURITY_SETTING_GROUPS];

export function findSetting(key: string): Setting | undefined {
  return BY_KEY.get(key);
}

/** The free-form family a key belongs to (`index.analysis.analyzer.x.type`), if any. */
export function findGroup(key: string): SettingGroup | undefined {
  return GROUPS.find((g) => key.startsWith(g.prefix) && key.length > g.prefix.length);
}

/**
 * The declarations a scope accepts. Cluster updates (`PUT _cluster/settings`) accept cluster
 * and node settings alike — node ones are then refused as not dynamically updateable.
 */
export function settingsOfScope(scope: SettingScope): Setting[] {
  const out: Setting[] = [];
  for (const s of BY_KEY.values()) {
    if (scope === 'index' ? s.scope === 'index' : s.scope !== 'index') out.push(s);
  }
  return out;
}

/** Keys similar enough for `unknown setting [x] did you mean [y]?` (similarity > 0.7). */
export function suggestKeys(key: string, scope: SettingScope): string[] {
  return similarKeys(
    key,
    settingsOfScope(scope).map((s) => s.key),
    0.7,
  );
}
