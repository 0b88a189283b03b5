/**
 * `POST /_transform/{id}/_update` (TransformConfigUpdate.apply): the fields an update may
 * carry replace the stored ones — `settings` key by key, where `null` resets one — and the
 * result is checked as a whole configuration.
 */
import { statusException } from '@shoal/protocol';
import type { BodyReader } from './strict-body.ts';
import { configJson, parseTransformConfig, type TransformConfig } from './transform-config.ts';

const UPDATABLE = [
  'source',
  'dest',
  'frequency',
  'sync',
  'description',
  'settings',
  '_meta',
  'retention_policy',
];

/** TransformConfigUpdate.apply: the given fields replace the old ones; `retention_policy: null` removes it. */
export function mergeUpdate(
  old: TransformConfig,
  json: unknown,
  r: BodyReader,
  warnings: string[],
): TransformConfig {
  const update = (json ?? {}) as Record<string, unknown>;
  r.known('data_frame_transform_config_update', update, UPDATABLE);
  const base = configJson(old);
  const merged: Record<string, unknown> = { ...base };
  delete merged.version;
  delete merged.create_time;
  for (const k of UPDATABLE) {
    if (!(k in update)) continue;
    if (k === 'settings') {
      const settings = {
        ...(base.settings as Record<string, unknown>),
        ...(update.settings as Record<string, unknown>),
      };
      for (const [sk, sv] of Object.entries(settings)) if (sv === null) delete settings[sk];
      merged.settings = settings;
    } else if (update[k] === null) delete merged[k];
    else merged[k] = update[k];
  }
  if (old.sync === undefined && update.sync !== undefined && update.sync !== null) {
    throw statusException(
      `Cannot change the current sync configuration of transform [${old.id}] from [null] to [${Object.keys(update.sync as object)[0] ?? ''}]`,
      409,
    );
  }
  // The function is not updatable: its deprecations were reported when it was put.
  void warnings;
  const config = parseTransformConfig(r, old.id, merged, [], { now: old.createTime });
  config.version = old.version;
  return config;
}
