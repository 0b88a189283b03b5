/**
 * The node's settings at start-up (the `settings` of `cluster.config.json` and `-E key=value`
 * flags, Elasticsearch's elasticsearch.yml): every key must be a declared cluster or node
 * setting (an unknown one stops the start with Elasticsearch's `unknown setting […]` text and
 * its "did you mean" suggestion), every value must parse, and `node.local_storage: false` is
 * refused — a Shoal node always keeps its data on local storage, as Elasticsearch 8 requires.
 * Deprecated settings are reported for the deprecation log.
 */
import { type FlatSettings, isShoalError, normalizeSettings, validateSettings } from '@shoal/protocol';

export class NodeSettingsError extends Error {}

/** Checks the settings; returns the deprecation messages of the deprecated ones in use. */
export function checkNodeSettings(settings: Record<string, string>): string[] {
  let warnings: string[];
  try {
    const flat = normalizeSettings(settings, 'cluster') as FlatSettings;
    warnings = validateSettings(flat, 'cluster');
  } catch (e) {
    if (isShoalError(e)) throw new NodeSettingsError(e.reason);
    throw e;
  }
  if (settings['node.local_storage'] === 'false') {
    throw new NodeSettingsError(
      '[node.local_storage] may not be false: a node keeps its data on local storage (remove this setting)',
    );
  }
  return warnings;
}
