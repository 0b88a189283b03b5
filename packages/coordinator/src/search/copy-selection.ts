/**
 * Which copy of a shard a read goes to, among its started copies (primary and replicas), as
 * Elasticsearch's OperationRouting chooses with a `preference`:
 *
 * - `_only_local`: a copy on this node, or none; `_local`: a copy on this node if there is one;
 * - `_only_nodes:<ids or names>`: a copy on those nodes, or none; `_prefer_nodes:…`: those first;
 * - a custom string: the same copy for the same string, as long as the copies stay the same;
 * - no preference: a copy on this node (no network hop, and PIT and scroll keep their reader
 *   contexts on this node's threads), else the copies in turn.
 *
 * `_shards:…|<kind>` chooses by what follows the bar.
 */
import type { ShardCopy } from '../shards/shard-table.ts';

/** What a node's copy selection knows of where it runs. */
export interface CopySelector {
  /** This node's id. */
  localId: string;
  /** Node ids by name (for `_only_nodes` and `_prefer_nodes` given names). */
  nodeIdOf(name: string): string | undefined;
  /** The next turn of the round-robin among copies. */
  turn(): number;
}

const isLocal = (c: ShardCopy, localId: string) => (c.node === undefined ? !c.remote : c.node === localId);

/** The copy kind a preference names (after any `_shards:…|`), with its argument. */
function copyPreference(preference: string | undefined): { kind: string; arg: string } | undefined {
  if (preference === undefined || preference.length === 0) return undefined;
  let p = preference;
  if (p.startsWith('_shards:')) {
    const bar = p.indexOf('|');
    if (bar === -1) return undefined;
    p = p.slice(bar + 1);
    if (p.length === 0) return undefined;
  }
  if (p.charAt(0) !== '_') return { kind: 'custom', arg: p };
  const colon = p.indexOf(':');
  return colon === -1 ? { kind: p, arg: '' } : { kind: p.slice(0, colon), arg: p.slice(colon + 1) };
}

/** A stable 32-bit hash of a custom preference (FNV-1a). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The copy of a shard a read goes to; `copies` are the shard's copies (any state). Undefined
 * when no started copy suits an `_only_*` preference, or none is started.
 */
export function chooseCopy(
  copies: readonly ShardCopy[],
  preference: string | undefined,
  sel: CopySelector,
): ShardCopy | undefined {
  const started = copies.filter((c) => c.state === 'STARTED' && c.worker !== undefined);
  if (started.length === 0) return undefined;
  const pref = copyPreference(preference);
  const local = started.find((c) => isLocal(c, sel.localId));
  switch (pref?.kind) {
    case '_only_local':
    case '_onlyLocal':
      return local;
    case '_local':
      return local ?? roundRobin(started, sel);
    case '_only_nodes':
      return pick(
        started.filter((c) => onNodes(c, pref.arg, sel)),
        sel,
      );
    case '_prefer_nodes': {
      const preferred = started.filter((c) => onNodes(c, pref.arg, sel));
      return pick(preferred.length > 0 ? preferred : started, sel);
    }
    case 'custom': {
      const ordered = [...started].sort((a, b) => ((a.allocationId ?? '') < (b.allocationId ?? '') ? -1 : 1));
      return ordered[hash(pref.arg) % ordered.length];
    }
    default:
      return local ?? roundRobin(started, sel);
  }
}

function onNodes(c: ShardCopy, list: string, sel: CopySelector): boolean {
  const node = c.node ?? sel.localId;
  return list.split(',').some((n) => n === node || sel.nodeIdOf(n) === node);
}

function pick(copies: ShardCopy[], sel: CopySelector): ShardCopy | undefined {
  if (copies.length === 0) return undefined;
  return copies.find((c) => isLocal(c, sel.localId)) ?? roundRobin(copies, sel);
}

function roundRobin(copies: ShardCopy[], sel: CopySelector): ShardCopy {
  return copies[sel.turn() % copies.length]!;
}
