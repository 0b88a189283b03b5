/**
 * Index metadata in the published cluster state of a multi-node cluster. A change is made by
 * the master (a request on another node is forwarded to it over the transport, and answered
 * once the node that asked has applied the state that carries it); the master's change is a
 * cluster-state task, checked against the state it runs on, so that two changes made from the
 * same starting point never both pass. The state keeps each index as its JSON, under
 * `metadata.indices`; every node applies it into its IndicesService.
 */
import { type ClusterService, type ClusterState, type IndexToAllocate, isActive } from '@shoal/cluster';
import {
  getInt,
  illegalState,
  masterNotDiscovered,
  resourceAlreadyExists,
  ShoalError,
  timeoutException,
  type WireError,
} from '@shoal/protocol';
import { desiredReplicas } from './auto-expand-replicas.ts';
import type { IndexMetadata } from './index-metadata.ts';
import { type IndexMetadataJson, indexMetadataToJson } from './index-metadata-json.ts';

export type PublishedIndexMap = Readonly<Record<string, IndexMetadataJson>>;

/** The indices of a published state, by name. */
export function publishedIndices(state: ClusterState): PublishedIndexMap {
  return (state.metadata.indices as PublishedIndexMap | undefined) ?? {};
}

/**
 * What the master's allocation reads of each open index: its shards, and its replicas (as
 * many as `index.auto_expand_replicas` wants for the data nodes there are, when it is set).
 */
export function indicesToAllocate(state: ClusterState): IndexToAllocate[] {
  const dataNodes = Object.values(state.nodes).filter((n) => n.roles.includes('data')).length;
  return Object.values(publishedIndices(state))
    .filter((j) => j.state === 'open')
    .map((j) => ({
      name: j.name,
      uuid: j.uuid,
      shards: j.numberOfShards,
      replicas: desiredReplicas(j.settings, dataNodes) ?? getInt(j.settings, 'index.number_of_replicas'),
    }));
}

/** A new version of an index, made from `base` (null: a new index, which must not exist yet). */
export interface IndexPut {
  meta: IndexMetadata;
  base: IndexMetadata | null;
}

const sameVersion = (j: IndexMetadataJson, m: IndexMetadata): boolean =>
  j.uuid === m.uuid &&
  j.mappingVersion === m.mappingVersion &&
  j.settingsVersion === m.settingsVersion &&
  j.aliasesVersion === m.aliasesVersion;

/** The state with `puts` written and `removes` gone; refuses a put whose base is not the state's. */
export function withIndicesChanged(
  state: ClusterState,
  puts: readonly IndexPut[],
  removes: readonly IndexMetadata[],
): ClusterState {
  const indices: Record<string, IndexMetadataJson> = { ...publishedIndices(state) };
  for (const { meta, base } of puts) {
    const there = indices[meta.name];
    if (base === null && there) throw resourceAlreadyExists(meta.name, there.uuid);
    if (base !== null && (!there || !sameVersion(there, base))) {
      throw illegalState(`index [${meta.name}] was changed by another request at the same time; try again`);
    }
    indices[meta.name] = indexMetadataToJson(meta);
  }
  for (const m of removes) if (indices[m.name]?.uuid === m.uuid) delete indices[m.name];
  return { ...state, metadata: { ...state.metadata, indices } };
}

/** An error comes with the version of the state the master judged it on (0 when not the master). */
type Reply =
  | { ok: true; value: unknown; version: number }
  | { ok: false; error: WireError | null; version: number };

const ACTION = 'indices/';
const MASTER_TIMEOUT_MS = 30_000;

export class PublishedIndices {
  constructor(readonly cluster: ClusterService) {}

  isMaster(): boolean {
    return this.cluster.isMaster();
  }

  /** On the master: publishes the change and resolves with the version of the state committed. */
  async commit(
    source: string,
    puts: readonly IndexPut[],
    removes: readonly IndexMetadata[] = [],
  ): Promise<number> {
    await this.cluster.commitHere(source, (s) => withIndicesChanged(s, puts, removes));
    return this.cluster.state().version;
  }

  /** Serves `op` for the other nodes; `run` is called on the master only. */
  serve(op: string, run: (body: never) => Promise<unknown>): void {
    this.cluster.handle(ACTION + op, async (_from, body): Promise<Reply> => {
      if (!this.cluster.isMaster()) return { ok: false, error: null, version: 0 };
      try {
        const value = await run(body as never);
        return { ok: true, value, version: this.cluster.state().version };
      } catch (e) {
        const version = this.cluster.state().version;
        if (e instanceof ShoalError) return { ok: false, error: e.toWire(), version };
        return { ok: false, error: null, version: 0 };
      }
    });
  }

  /**
   * Carries out `op` on the master and resolves with its answer (or its error) and the version
   * of the state that holds the change (or that the master judged it on). While no master is known, or the one asked is no longer master, it
   * tries again until the master timeout passes (then master_not_discovered_exception).
   */
  async forward<T>(op: string, body: unknown): Promise<{ value?: T; error?: ShoalError; version: number }> {
    const deadline = Date.now() + MASTER_TIMEOUT_MS;
    for (;;) {
      const master = this.cluster.masterNode();
      if (master) {
        const left = Math.max(1, deadline - Date.now());
        const reply = await this.cluster
          .request<Reply>(master, ACTION + op, body, left)
          .catch((): Reply => ({ ok: false, error: null, version: 0 }));
        if (reply.ok) return { value: reply.value as T, version: reply.version };
        if (reply.error) return { error: ShoalError.fromWire(reply.error), version: reply.version };
      }
      if (Date.now() >= deadline) {
        throw masterNotDiscovered(
          `no elected master was found to carry out [${op}] within [${MASTER_TIMEOUT_MS}ms]`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Resolves once the applied routing table has every primary of the index started on a node of
   * the cluster (or the index is gone), or after the master timeout: the answer of a create index does not wait longer.
   */
  async primariesActive(name: string, uuid: string): Promise<boolean> {
    return this.cluster.waitForState((s) => {
      if (s.stateNotRecovered) return false;
      const r = s.routingTable.indices[name];
      if (!r || r.uuid !== uuid) return publishedIndices(s)[name]?.uuid !== uuid;
      // A copy the table still shows on a node that has not joined this state (after a
      // full-cluster restart) cannot serve yet.
      return r.shards.every(
        (copies) =>
          copies[0] !== undefined &&
          isActive(copies[0]) &&
          copies[0].node !== null &&
          s.nodes[copies[0].node] !== undefined,
      );
    }, MASTER_TIMEOUT_MS);
  }

  /** Resolves once this node has applied a state of at least `version`. */
  async applied(version: number): Promise<void> {
    const ok = await this.cluster.waitForState((s) => s.version >= version, MASTER_TIMEOUT_MS);
    if (!ok) throw timeoutException(`the cluster state of version [${version}] was not applied in time`);
  }
}
