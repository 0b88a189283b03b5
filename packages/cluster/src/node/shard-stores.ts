/**
 * The master's view of which shards each node has on disk, for the primaries it recovers after
 * a full-cluster restart (Elasticsearch's GatewayAllocator fetches each node's started-shard
 * states the same way). Each data node is asked once per incarnation over the transport; a
 * node that cannot answer is asked again a second later. The listings are dropped once no
 * recovered primary waits for one.
 */
import type { DiscoveryNode } from '../coordination/cluster-state.ts';

/** The transport action a node answers with the shard folders under its data path. */
export const LIST_SHARD_STORES_ACTION = 'internal:gateway/local/started_shards';

export interface ShardStoreListing {
  shards: { indexUuid: string; shard: number }[];
}

const RETRY_MS = 1_000;

interface Entry {
  ephemeralId: string;
  /** Null while the node's answer is awaited. */
  shards: Set<string> | null;
}

export class ShardStores {
  private readonly entries = new Map<string, Entry>();
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ask: (node: DiscoveryNode) => Promise<ShardStoreListing>,
    /** Called when a listing arrives (or a failed one may be asked again): allocation may go on. */
    private readonly changed: () => void,
    private readonly warn: (obj: object, msg: string) => void,
  ) {}

  /** Whether `node` (this incarnation of it) has listed data of the shard. */
  has(node: DiscoveryNode | undefined, indexUuid: string, shard: number): boolean {
    const e = node && this.entries.get(node.id);
    return e?.ephemeralId === node?.ephemeralId && e?.shards?.has(`${indexUuid}/${shard}`) === true;
  }

  /** Asks every node of `nodes` whose listing (for its current incarnation) is neither held nor awaited. */
  fetchMissing(nodes: readonly DiscoveryNode[]): void {
    for (const node of nodes) {
      const e = this.entries.get(node.id);
      if (e?.ephemeralId === node.ephemeralId) continue;
      const entry: Entry = { ephemeralId: node.ephemeralId, shards: null };
      this.entries.set(node.id, entry);
      this.ask(node).then(
        (listing) => {
          if (this.entries.get(node.id) !== entry) return;
          entry.shards = new Set(listing.shards.map((s) => `${s.indexUuid}/${s.shard}`));
          this.changed();
        },
        (err: unknown) => {
          if (this.entries.get(node.id) !== entry) return;
          this.warn(
            { node: node.name, err: String(err) },
            'could not list the shards a node holds; asking again',
          );
          const t = setTimeout(() => {
            this.retries.delete(t);
            if (this.entries.get(node.id) === entry) this.entries.delete(node.id);
            this.changed();
          }, RETRY_MS);
          this.retries.add(t);
        },
      );
    }
  }

  clear(): void {
    this.entries.clear();
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
  }
}
