/**
 * The `preference` parameter of a read, as OperationRouting reads it on one node: `_shards:0,2`
 * keeps the read to those shard numbers (what follows a `|` is a preference among copies, which
 * a node holding every copy has no use for), the other `_` kinds choose copies, any other value
 * is a custom string that only steers which copy answers.
 */
import { illegalArgument, numberFormat } from '@shoal/protocol';
import { splitRouting } from './search-routing.ts';

/** The kinds Preference.parse knows. */
const KINDS = new Set(['_shards', '_prefer_nodes', '_local', '_only_local', '_onlyLocal', '_only_nodes']);

function checkKind(preference: string): string {
  const colon = preference.indexOf(':');
  const kind = colon === -1 ? preference : preference.slice(0, colon);
  if (!KINDS.has(kind)) throw illegalArgument(`no Preference for [${kind}]`);
  return kind;
}

/**
 * The shard numbers a preference keeps, or undefined when it keeps them all; Elasticsearch's
 * errors for an unknown `_` kind and a shard number that is not an integer.
 */
export function preferredShards(preference: string | undefined): ReadonlySet<number> | undefined {
  if (preference === undefined || preference.length === 0 || preference.charAt(0) !== '_') return undefined;
  if (checkKind(preference) !== '_shards') return undefined;
  const bar = preference.indexOf('|');
  const list = preference.slice('_shards:'.length, bar === -1 ? undefined : bar);
  const shards = new Set<number>();
  // Integer.parseInt over String.split(","): an empty value between commas fails too.
  for (const id of splitRouting(list)) {
    const n = Number(id);
    if (!/^[+-]?\d{1,10}$/.test(id) || n < -(2 ** 31) || n > 2 ** 31 - 1) throw numberFormat(id);
    shards.add(n);
  }
  // What follows the bar chooses among the copies; its kind must still be one Elasticsearch knows.
  const rest = bar === -1 ? '' : preference.slice(bar + 1);
  if (rest.charAt(0) === '_') checkKind(rest);
  return shards;
}
