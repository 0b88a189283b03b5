/**
 * Cluster-wide dynamic settings (`PUT /_cluster/settings`): persistent and transient, flat
 * canonical keys to string values. Transient wins over persistent, and declared defaults fill
 * the rest (through the protocol settings registry's getters).
 */
import {
  clusterUpdateCheck,
  type FlatSettings,
  normalizeSettings,
  type SettingsUpdate,
  simpleMatch,
} from '@shoal/protocol';

/**
 * Splits `"indices.recovery.*": null` resets out of one part of the body: Elasticsearch's
 * AbstractScopedSettings.updateSettings accepts a null key ending in `*` without validating it
 * and removes every setting it matches.
 */
function splitWildcardResets(part: unknown): { rest: unknown; patterns: string[] } {
  if (part === null || typeof part !== 'object' || Array.isArray(part)) return { rest: part, patterns: [] };
  const rest: Record<string, unknown> = {};
  const patterns: string[] = [];
  for (const [k, v] of Object.entries(part)) {
    if (v === null && k.endsWith('*')) patterns.push(k);
    else rest[k] = v;
  }
  return { rest, patterns };
}

export class ClusterSettings {
  private persistent: FlatSettings = {};
  private transient: FlatSettings = {};
  private listeners: ((effective: FlatSettings) => void)[] = [];

  constructor(
    private readonly fromConfig: FlatSettings = {},
    /** Persistent settings restored from the node's data path. */
    persisted: FlatSettings = {},
  ) {
    this.persistent = { ...persisted };
  }

  /** The settings in force: node config, then persistent, then transient. */
  effective(): FlatSettings {
    return { ...this.fromConfig, ...this.persistent, ...this.transient };
  }

  view(): { persistent: FlatSettings; transient: FlatSettings } {
    return { persistent: { ...this.persistent }, transient: { ...this.transient } };
  }

  onChange(listener: (effective: FlatSettings) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Validates both parts whole, then applies them; a `null` value resets a setting. Returns the
   * applied parts and the deprecation warnings of the deprecated settings they set.
   */
  update(body: { persistent?: unknown; transient?: unknown }): {
    persistent: SettingsUpdate;
    transient: SettingsUpdate;
    warnings: string[];
  } {
    const pw = splitWildcardResets(body.persistent ?? {});
    const tw = splitWildcardResets(body.transient ?? {});
    const p = normalizeSettings(pw.rest, 'cluster');
    const t = normalizeSettings(tw.rest, 'cluster');
    const current = this.effective();
    const warnings = [
      ...clusterUpdateCheck(p, 'persistent', current),
      ...clusterUpdateCheck(t, 'transient', current),
    ];
    const resetMatching = (current: FlatSettings, patterns: string[], changes: SettingsUpdate) => {
      for (const k of Object.keys(current)) {
        if (!(k in changes) && patterns.some((pattern) => simpleMatch(pattern, k))) changes[k] = null;
      }
    };
    resetMatching(this.persistent, pw.patterns, p);
    resetMatching(this.transient, tw.patterns, t);
    const apply = (target: FlatSettings, changes: SettingsUpdate) => {
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === undefined) delete target[k];
        else target[k] = v;
      }
    };
    apply(this.persistent, p);
    apply(this.transient, t);
    const effective = this.effective();
    for (const l of this.listeners) l(effective);
    return { persistent: p, transient: t, warnings };
  }
}
