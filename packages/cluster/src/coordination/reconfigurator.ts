/**
 * The voting configuration the master wants, by Elasticsearch's Reconfigurator rules: live
 * master-eligible nodes that are not excluded come first (the master itself first of all),
 * then nodes of the current configuration that are not live; the size is the live count
 * rounded down to odd, but with `cluster.auto_shrink_voting_configuration` never below 3 once
 * the configuration had 3 (without it, never below the current size). A configuration without a
 * live quorum is never chosen: the current one is kept.
 */
import { hasQuorum, type VotingConfig, votingConfig } from './voting-config.ts';

export interface ReconfigureInput {
  /** Live master-eligible node ids: in the state and voted for this master. */
  live: ReadonlySet<string>;
  /** Excluded node ids (voting-config exclusions). */
  retired: ReadonlySet<string>;
  masterId: string;
  current: VotingConfig;
  autoShrink: boolean;
}

const roundDownToOdd = (n: number) => n - (n % 2 === 0 ? 1 : 0);

interface Candidate {
  id: string;
  live: boolean;
  master: boolean;
  inConfig: boolean;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.master !== b.master) return a.master ? -1 : 1;
  if (a.live !== b.live) return a.live ? -1 : 1;
  if (a.inConfig !== b.inConfig) return a.inConfig ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function reconfigure(input: ReconfigureInput): VotingConfig {
  const { live, retired, masterId, current, autoShrink } = input;
  const inConfig = new Set(current);
  const byId = new Map<string, Candidate>();
  for (const id of live) {
    if (retired.has(id)) continue;
    byId.set(id, { id, live: true, master: id === masterId, inConfig: inConfig.has(id) });
  }
  for (const id of current) {
    if (live.has(id) || retired.has(id)) continue;
    byId.set(id, { id, live: false, master: false, inConfig: true });
  }
  const ordered = [...byId.values()].sort(compareCandidates);
  const nonRetiredConfigSize = ordered.filter((c) => c.inConfig).length;
  const minimumSize = autoShrink ? (nonRetiredConfigSize < 3 ? 1 : 3) : nonRetiredConfigSize;
  const liveCount = ordered.filter((c) => c.live).length;
  const target = Math.max(roundDownToOdd(liveCount), minimumSize);
  const next = votingConfig(ordered.slice(0, target).map((c) => c.id));
  return hasQuorum(next, live) ? next : current;
}
