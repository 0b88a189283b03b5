/**
 * Coordination timings, after Elasticsearch's `cluster.election.*`, `cluster.fault_detection.*`,
 * `cluster.publish.timeout` and `discovery.find_peers_interval`, with shorter failure-detection
 * timeouts than Elasticsearch's 10 s: a node that is lost is noticed within a few seconds.
 */
export interface CoordinationSettings {
  electionInitialTimeoutMs: number;
  electionBackOffMs: number;
  electionMaxTimeoutMs: number;
  electionDurationMs: number;
  findPeersIntervalMs: number;
  /** How long a candidate waits before asking a master it found to let it join again. */
  joinRetryMs: number;
  leaderCheckIntervalMs: number;
  leaderCheckTimeoutMs: number;
  leaderCheckRetries: number;
  followerCheckIntervalMs: number;
  followerCheckTimeoutMs: number;
  followerCheckRetries: number;
  /** A publication not committed in this time fails, and the master stands down. */
  publishTimeoutMs: number;
}

export const DEFAULT_COORDINATION_SETTINGS: CoordinationSettings = {
  electionInitialTimeoutMs: 100,
  electionBackOffMs: 100,
  electionMaxTimeoutMs: 10_000,
  electionDurationMs: 500,
  findPeersIntervalMs: 1_000,
  joinRetryMs: 1_000,
  leaderCheckIntervalMs: 1_000,
  leaderCheckTimeoutMs: 2_000,
  leaderCheckRetries: 3,
  followerCheckIntervalMs: 1_000,
  followerCheckTimeoutMs: 2_000,
  followerCheckRetries: 3,
  publishTimeoutMs: 30_000,
};

/** `cluster.auto_shrink_voting_configuration`: read from the state's persistent settings. */
export const AUTO_SHRINK_SETTING = 'cluster.auto_shrink_voting_configuration';
