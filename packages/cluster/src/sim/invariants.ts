/**
 * What the simulation checks after every step of every node, whatever the network did:
 * - at most one master per term;
 * - committed states form one history: two committed states of one version are the same
 *   state, and a later committed state extends the log of every earlier one (so an
 *   acknowledged change is never lost or contradicted);
 * - a state is committed only once a quorum of both its configurations accepted it, and a
 *   quorum of the configuration the committed state before it committed (so a
 *   reconfiguration, an exclusion among them, never leaves two disjoint quorums);
 * - a node applies states in increasing versions.
 */
import type { ClusterState } from '../coordination/cluster-state.ts';
import { hasQuorum } from '../coordination/voting-config.ts';

export class InvariantViolation extends Error {}

interface Committed {
  version: number;
  uuid: string;
  log: readonly string[];
  published: ClusterState;
}

export const logOf = (s: ClusterState): readonly string[] => (s.metadata.log as string[] | undefined) ?? [];

const isPrefix = (a: readonly string[], b: readonly string[]) =>
  a.length <= b.length && a.every((v, i) => b[i] === v);

export class Invariants {
  private readonly leaders = new Map<number, string>();
  /** Committed states by ascending version. */
  private readonly committed: Committed[] = [];
  /** Every state as first accepted (before it was marked committed), by state uuid. */
  private readonly published = new Map<string, ClusterState>();
  private readonly acceptors = new Map<string, Set<string>>();
  /** Per node incarnation: the last version it applied. */
  private readonly appliedVersion = new Map<string, number>();
  leaderCount = 0;

  private fail(why: string): never {
    throw new InvariantViolation(why);
  }

  leaderElected(term: number, id: string): void {
    const had = this.leaders.get(term);
    if (had === undefined) {
      this.leaders.set(term, id);
      this.leaderCount++;
    } else if (had !== id) this.fail(`two masters in term ${term}: ${had} and ${id}`);
  }

  accepted(nodeId: string, state: ClusterState): void {
    if (state.version === 0) return;
    if (!this.published.has(state.stateUuid)) this.published.set(state.stateUuid, state);
    const set = this.acceptors.get(state.stateUuid);
    if (set) set.add(nodeId);
    else this.acceptors.set(state.stateUuid, new Set([nodeId]));
  }

  applied(incarnation: string, nodeId: string, state: ClusterState): void {
    const last = this.appliedVersion.get(incarnation) ?? -1;
    if (state.version <= last) this.fail(`${nodeId} applied version ${state.version} after ${last}`);
    this.appliedVersion.set(incarnation, state.version);
    this.commit(state);
  }

  private commit(state: ClusterState): void {
    const list = this.committed;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.version < state.version) lo = mid + 1;
      else hi = mid;
    }
    const at = list[lo];
    if (at && at.version === state.version) {
      if (at.uuid !== state.stateUuid) {
        this.fail(`two states committed as version ${state.version}: ${at.uuid} and ${state.stateUuid}`);
      }
      return;
    }
    const published = this.published.get(state.stateUuid);
    if (!published) this.fail(`state ${state.stateUuid} applied but never accepted`);
    const acceptors = this.acceptors.get(state.stateUuid) ?? new Set<string>();
    const c = published.coordination;
    if (!hasQuorum(c.lastAcceptedConfig, acceptors) || !hasQuorum(c.lastCommittedConfig, acceptors)) {
      this.fail(
        `version ${state.version} committed without a quorum: accepted by [${[...acceptors]}], configs [${c.lastCommittedConfig}] / [${c.lastAcceptedConfig}]`,
      );
    }
    const entry: Committed = { version: state.version, uuid: state.stateUuid, log: logOf(state), published };
    const prev = list[lo - 1];
    const next = list[lo];
    if (prev) {
      if (!isPrefix(prev.log, entry.log))
        this.fail(`version ${entry.version} lost changes committed in ${prev.version}`);
      // Whatever configurations the new state names, a quorum of the configuration the last
      // committed state committed must have accepted it: else two disjoint quorums could exist.
      const before = prev.published.coordination.lastAcceptedConfig;
      if (!hasQuorum(before, acceptors)) {
        this.fail(
          `version ${entry.version} committed without a quorum of the configuration [${before}] committed by version ${prev.version} (accepted by [${[...acceptors]}])`,
        );
      }
    }
    if (next && !isPrefix(entry.log, next.log)) {
      this.fail(`version ${next.version} does not extend the earlier committed version ${entry.version}`);
    }
    list.splice(lo, 0, entry);
  }

  /** Every value acknowledged to a client is in the latest committed state. */
  checkAcknowledged(acked: readonly string[]): void {
    const last = this.committed[this.committed.length - 1];
    if (!last) {
      if (acked.length > 0) this.fail('values acknowledged but nothing committed');
      return;
    }
    const have = new Set(last.log);
    for (const v of acked)
      if (!have.has(v)) this.fail(`acknowledged value ${v} is not in the last committed state`);
  }

  get committedCount(): number {
    return this.committed.length;
  }
}
