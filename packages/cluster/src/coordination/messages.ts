/**
 * The messages coordinating nodes exchange. They are one-way: a reply is a message of its own,
 * matched by term, version or request id, and a message may be lost, repeated or reordered.
 * Every handler therefore treats a message as a fact about its sender at some moment, never
 * as an answer it is owed.
 */
import type { ClusterState, DiscoveryNode } from './cluster-state.ts';

/** A vote: `source` will follow `target` in `term`; carries what `source` last accepted. */
export interface Join {
  source: string;
  target: string;
  term: number;
  lastAcceptedTerm: number;
  lastAcceptedVersion: number;
}

export type CoordinationMessage =
  /** Peer finding: who do you know, and who is your master? */
  | { t: 'peers'; node: DiscoveryNode; known: DiscoveryNode[] }
  | { t: 'peers_res'; node: DiscoveryNode; known: DiscoveryNode[]; masterId: string | null; term: number }
  /** Would you vote for me? (no term is raised by a pre-vote) */
  | { t: 'pre_vote'; node: DiscoveryNode; term: number; round: number }
  | {
      t: 'pre_vote_res';
      round: number;
      currentTerm: number;
      lastAcceptedTerm: number;
      lastAcceptedVersion: number;
    }
  /** Raise your term to `term` and vote for `candidate`. */
  | { t: 'start_join'; candidate: DiscoveryNode; term: number }
  /** A vote (from start_join), or a request to join an elected master (with a vote if one is due). */
  | { t: 'join'; node: DiscoveryNode; join: Join | null; term: number }
  | { t: 'publish'; state: ClusterState }
  | { t: 'publish_res'; term: number; version: number; join: Join | null }
  | { t: 'commit'; term: number; version: number }
  | { t: 'leader_check'; id: number }
  | { t: 'leader_check_res'; id: number; ok: boolean; term: number }
  | { t: 'follower_check'; id: number; term: number }
  /** With what the follower last accepted and applied, so that a master can bring it up to date. */
  | {
      t: 'follower_check_res';
      id: number;
      ok: boolean;
      term: number;
      accepted: { term: number; version: number };
      appliedVersion: number;
    };

export type MessageType = CoordinationMessage['t'];
