/**
 * A voting configuration: the master-eligible node ids whose votes count. A decision (an
 * election, a commit) needs a strict majority of it, as Elasticsearch's
 * VotingConfiguration.hasQuorum: `|votes ∩ config| * 2 > |config|`. An empty configuration
 * has no quorum, so a node that was never bootstrapped can win nothing.
 */
export type VotingConfig = readonly string[];

export const EMPTY_CONFIG: VotingConfig = [];

/** Sorted and without duplicates, so that equal configurations compare equal. */
export function votingConfig(ids: Iterable<string>): VotingConfig {
  return [...new Set(ids)].sort();
}

export function hasQuorum(config: VotingConfig, votes: ReadonlySet<string>): boolean {
  let n = 0;
  for (const id of config) if (votes.has(id)) n++;
  return n * 2 > config.length;
}

export function sameConfig(a: VotingConfig, b: VotingConfig): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The placeholder Elasticsearch's ClusterBootstrapService writes for a node named in
 * `cluster.initial_master_nodes` that it has not discovered yet: it keeps the quorum size
 * right, and no real node ever votes as it.
 */
export const BOOTSTRAP_PLACEHOLDER_PREFIX = '{bootstrap-placeholder}-';
