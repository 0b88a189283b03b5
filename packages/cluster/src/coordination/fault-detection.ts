/**
 * Followers check their leader and the leader checks its followers (Elasticsearch's
 * LeaderChecker and FollowersChecker): a check every interval, one outstanding at a time; a
 * check not answered within its timeout, or answered with a refusal, is a failure, and
 * `retries` failures in a row fail the peer. A broken connection fails it at once (the
 * coordinator's peerDisconnected).
 */
import type { CoordinationSettings } from './settings.ts';

interface Tracker {
  peer: string;
  nextAt: number;
  outstanding: { id: number; deadline: number } | null;
  failures: number;
  /** Answered a check since it was first checked. */
  answered: boolean;
}

export type CheckResult =
  | { kind: 'none' }
  | { kind: 'leader_failed' }
  | { kind: 'follower_failed'; id: string };

export type CheckAction =
  | { kind: 'send_leader_check'; to: string; id: number }
  | { kind: 'send_follower_check'; to: string; id: number }
  | { kind: 'leader_failed' }
  | { kind: 'follower_failed'; id: string };

const NONE: CheckResult = { kind: 'none' };

export class FaultDetector {
  private leader: Tracker | null = null;
  private readonly followers = new Map<string, Tracker>();
  private nextId = 1;

  constructor(private readonly s: CoordinationSettings) {}

  clear(): void {
    this.leader = null;
    this.followers.clear();
  }

  followLeader(id: string, now: number): void {
    this.followers.clear();
    this.leader = {
      peer: id,
      nextAt: now + this.s.leaderCheckIntervalMs,
      outstanding: null,
      failures: 0,
      answered: false,
    };
  }

  /** The leader's followers are the other nodes of its last committed state. */
  setFollowers(ids: readonly string[], now: number): void {
    this.leader = null;
    const keep = new Set(ids);
    for (const id of this.followers.keys()) if (!keep.has(id)) this.followers.delete(id);
    for (const id of ids) {
      if (!this.followers.has(id)) {
        this.followers.set(id, { peer: id, nextAt: now, outstanding: null, failures: 0, answered: false });
      }
    }
  }

  /** Followers that have answered a check of this leader. */
  answering(): string[] {
    return [...this.followers.values()].filter((t) => t.answered).map((t) => t.peer);
  }

  isFollowing(id: string): boolean {
    return this.followers.has(id);
  }

  dropFollower(id: string): void {
    this.followers.delete(id);
  }

  private answered(t: Tracker, id: number, ok: boolean, retries: number): boolean {
    if (!t.outstanding || t.outstanding.id !== id) return false;
    t.outstanding = null;
    if (ok) {
      t.failures = 0;
      t.answered = true;
      return false;
    }
    t.failures++;
    return t.failures >= retries;
  }

  leaderAnswered(id: number, ok: boolean): CheckResult {
    const t = this.leader;
    if (t && this.answered(t, id, ok, this.s.leaderCheckRetries)) {
      this.leader = null;
      return { kind: 'leader_failed' };
    }
    return NONE;
  }

  followerAnswered(from: string, id: number, ok: boolean): CheckResult {
    const t = this.followers.get(from);
    if (t && this.answered(t, id, ok, this.s.followerCheckRetries)) {
      this.followers.delete(from);
      return { kind: 'follower_failed', id: from };
    }
    return NONE;
  }

  /** Checks to send and peers failed by timeouts, as of `now`. */
  due(now: number, mode: string): CheckAction[] {
    const out: CheckAction[] = [];
    const t = this.leader;
    if (t && mode === 'FOLLOWER') {
      const r = this.advance(
        t,
        now,
        this.s.leaderCheckIntervalMs,
        this.s.leaderCheckTimeoutMs,
        this.s.leaderCheckRetries,
      );
      if (r === 'failed') {
        this.leader = null;
        out.push({ kind: 'leader_failed' });
      } else if (r !== null) out.push({ kind: 'send_leader_check', to: t.peer, id: r });
    }
    if (mode === 'LEADER') {
      for (const f of [...this.followers.values()]) {
        const s = this.s;
        const r = this.advance(
          f,
          now,
          s.followerCheckIntervalMs,
          s.followerCheckTimeoutMs,
          s.followerCheckRetries,
        );
        if (r === 'failed') {
          this.followers.delete(f.peer);
          out.push({ kind: 'follower_failed', id: f.peer });
        } else if (r !== null) out.push({ kind: 'send_follower_check', to: f.peer, id: r });
      }
    }
    return out;
  }

  /** A check id to send now, 'failed', or null (nothing due). */
  private advance(
    t: Tracker,
    now: number,
    interval: number,
    timeout: number,
    retries: number,
  ): number | 'failed' | null {
    if (t.outstanding && now >= t.outstanding.deadline) {
      t.outstanding = null;
      t.failures++;
      if (t.failures >= retries) return 'failed';
      t.nextAt = now;
    }
    if (!t.outstanding && now >= t.nextAt) {
      const id = this.nextId++;
      t.outstanding = { id, deadline: now + timeout };
      t.nextAt = now + interval;
      return id;
    }
    return null;
  }

  nextWakeup(): number {
    let at = Number.POSITIVE_INFINITY;
    const consider = (t: Tracker) => {
      at = Math.min(at, t.outstanding ? t.outstanding.deadline : t.nextAt);
    };
    if (this.leader) consider(this.leader);
    for (const f of this.followers.values()) consider(f);
    return at;
  }
}
