/**
 * Voting-config exclusions (changes78.md §2.3): resolving a request against the state, the
 * `cluster.max_voting_config_exclusions` limit, and the state changes that add and clear them.
 * The master runs these as tasks; the REST node resolves once before submitting, as
 * Elasticsearch checks once before and again inside its cluster-state task.
 */
import { illegalArgument } from '@shoal/protocol';
import { ABSENT, type ClusterState, isMasterEligible, type VotingConfigExclusion } from './cluster-state.ts';
import { resolveNodeDescriptions } from './node-filters.ts';

export const MAX_EXCLUSIONS_SETTING = 'cluster.max_voting_config_exclusions';
export const DEFAULT_MAX_EXCLUSIONS = 10;

/** Exactly one of the three is non-empty (checked by the REST handler). */
export interface ExclusionRequest {
  nodeNames?: readonly string[];
  nodeIds?: readonly string[];
  /** The deprecated `{node_name}` path: node descriptions. */
  nodeDescriptions?: readonly string[];
}

export function maxExclusions(state: ClusterState): number {
  const v = Number.parseInt(state.settings[MAX_EXCLUSIONS_SETTING] ?? '', 10);
  return Number.isInteger(v) && v >= 1 ? v : DEFAULT_MAX_EXCLUSIONS;
}

/** The exclusions a request names, as Elasticsearch's resolveVotingConfigExclusions. */
export function resolveExclusions(state: ClusterState, req: ExclusionRequest): VotingConfigExclusion[] {
  const nodes = Object.values(state.nodes);
  const out: VotingConfigExclusion[] = [];
  if (req.nodeNames && req.nodeNames.length > 0) {
    for (const name of req.nodeNames) {
      const n = nodes.find((x) => x.name === name);
      if (!n) out.push({ nodeId: ABSENT, nodeName: name });
      else if (isMasterEligible(n)) out.push({ nodeId: n.id, nodeName: n.name });
    }
  } else if (req.nodeIds && req.nodeIds.length > 0) {
    for (const id of req.nodeIds) {
      const n = state.nodes[id];
      if (!n) out.push({ nodeId: id, nodeName: ABSENT });
      else if (isMasterEligible(n)) out.push({ nodeId: n.id, nodeName: n.name });
    }
  } else {
    const descs = req.nodeDescriptions ?? [];
    const ids = resolveNodeDescriptions(descs, nodes, '', state.masterNodeId);
    for (const id of ids) {
      const n = state.nodes[id]!;
      if (isMasterEligible(n)) out.push({ nodeId: n.id, nodeName: n.name });
    }
    if (out.length === 0) {
      throw illegalArgument(
        `add voting config exclusions request for [${descs.join(', ')}] matched no master-eligible nodes`,
      );
    }
  }
  return out;
}

const sameExclusion = (a: VotingConfigExclusion, b: VotingConfigExclusion) =>
  a.nodeId === b.nodeId && a.nodeName === b.nodeName;

/** The state with the request's exclusions added; refuses to pass the limit. */
export function withExclusionsAdded(state: ClusterState, req: ExclusionRequest): ClusterState {
  const old = state.coordination.exclusions;
  const fresh: VotingConfigExclusion[] = [];
  for (const e of resolveExclusions(state, req)) {
    if (!old.some((o) => sameExclusion(o, e)) && !fresh.some((f) => sameExclusion(f, e))) fresh.push(e);
  }
  const max = maxExclusions(state);
  if (old.length + fresh.length > max) {
    // Elasticsearch prints the deprecated node descriptions here, so `[]` for names and ids.
    throw illegalArgument(
      `add voting config exclusions request for [${(req.nodeDescriptions ?? []).join(', ')}] would add [${fresh.length}] exclusions to the existing [${old.length}] which would exceed the maximum of [${max}] set by [${MAX_EXCLUSIONS_SETTING}]`,
    );
  }
  if (fresh.length === 0) return state;
  return { ...state, coordination: { ...state.coordination, exclusions: [...old, ...fresh] } };
}

export function withExclusionsCleared(state: ClusterState): ClusterState {
  if (state.coordination.exclusions.length === 0) return state;
  return { ...state, coordination: { ...state.coordination, exclusions: [] } };
}

/** `{name}{id}` as VotingConfigExclusion.toString prints it (the name part only when set). */
export function describeExclusion(e: VotingConfigExclusion): string {
  return `${e.nodeName === '' ? '' : `{${e.nodeName}}`}{${e.nodeId}}`;
}
