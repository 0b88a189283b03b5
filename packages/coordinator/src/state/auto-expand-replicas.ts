/**
 * `index.auto_expand_replicas` (AutoExpandReplicas): an index that sets it gets as many
 * replicas as there are other data nodes, within its `<min>-<max>` bounds, written into its
 * `index.number_of_replicas` as Elasticsearch does.
 */
import { type FlatSettings, parseAutoExpandReplicas } from '@shoal/protocol';

/** The data nodes replicas can go to: this node alone, until shards are allocated across nodes. */
const DATA_NODES = 1;

/** AutoExpandReplicas.getDesiredNumberOfReplicas, or undefined when the setting is off. */
export function desiredReplicas(
  settings: Readonly<FlatSettings>,
  dataNodes = DATA_NODES,
): number | undefined {
  const raw = settings['index.auto_expand_replicas'];
  if (raw === undefined) return undefined;
  const range = parseAutoExpandReplicas(Array.isArray(raw) ? raw.join(',') : raw);
  if (!range) return undefined;
  const wanted = dataNodes - 1;
  if (wanted < range.min) return range.min;
  // `all` is parsed as Integer.MAX_VALUE: never above the other data nodes.
  return Math.min(wanted, range.max);
}

/** The settings with `index.number_of_replicas` set to what auto-expansion wants, if it is on. */
export function withAutoExpandedReplicas(settings: FlatSettings): FlatSettings {
  const n = desiredReplicas(settings);
  if (n === undefined || settings['index.number_of_replicas'] === String(n)) return settings;
  return { ...settings, 'index.number_of_replicas': String(n) };
}
