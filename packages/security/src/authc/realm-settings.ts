/**
 * What the settings of an external realm type (`xpack.security.authc.realms.<type>.<name>.*`)
 * share: the names of its realms, one realm's reader (an empty value counts as unset; a
 * missing required one is Elasticsearch's settings error), and the enabled realms in `order`.
 */
import { REALMS_PREFIX, settingsException } from '@shoal/protocol';

type Settings = Readonly<Record<string, string>>;

export interface RealmSettingsReader {
  /** The full setting name of `k`. */
  key(k: string): string;
  get(k: string): string | undefined;
  require(k: string): string;
}

export function failSetting(reason: string): never {
  throw settingsException(reason);
}

export function realmSettingsReader(settings: Settings, type: string, name: string): RealmSettingsReader {
  const key = (k: string) => `${REALMS_PREFIX}${type}.${name}.${k}`;
  const get = (k: string): string | undefined => {
    const v = settings[key(k)];
    return v === undefined || v === '' ? undefined : v;
  };
  const require = (k: string): string =>
    get(k) ?? failSetting(`The configuration setting [${key(k)}] is required`);
  return { key, get, require };
}

/** Every realm of `type` the settings name that `build` makes (undefined: disabled), in `order`, then name. */
export function realmsOfType<T extends { order: number; name: string }>(
  settings: Settings,
  type: string,
  build: (name: string) => T | undefined,
): T[] {
  const prefix = `${REALMS_PREFIX}${type}.`;
  const names = new Set<string>();
  for (const key of Object.keys(settings)) {
    if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('.')[0]!);
  }
  const out: T[] = [];
  for (const name of names) {
    const config = build(name);
    if (config) out.push(config);
  }
  return out.sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : 1));
}
