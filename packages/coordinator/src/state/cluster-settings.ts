/**
 * Cluster-wide dynamic settings (`PUT /_cluster/settings`): persistent and transient, flat
 * canonical keys to string values. Transient wins over persistent, and declared defaults fill
 * the rest (through the protocol settings registry's getters).
 */
import { type FlatSettings, normalizeSettings, type SettingsUpdate, validateSettings } from '@shoal/protocol';

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

  /** Validates both parts whole, then applies them; a `null` value resets a setting. */
  update(body: { persistent?: unknown; transient?: unknown }): {
    persistent: SettingsUpdate;
    transient: SettingsUpdate;
  } {
    const p = normalizeSettings(body.persistent ?? {}, 'cluster');
    const t = normalizeSettings(body.transient ?? {}, 'cluster');
    validateSettings(p, 'cluster');
    validateSettings(t, 'cluster');
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
    return { persistent: p, transient: t };
  }
}
