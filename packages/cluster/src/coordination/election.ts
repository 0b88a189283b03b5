/**
 * When a candidate tries to become master: after a random delay whose bound grows with each
 * attempt (Elasticsearch's `cluster.election.initial_timeout`, `back_off_time`, `max_timeout`),
 * so that candidates that started together drift apart and one of them wins. Each attempt is a
 * pre-vote round first: a term is raised only when a quorum would vote, so a node cut off from
 * the others cannot disturb them with ever higher terms.
 */
import type { CoordinationSettings } from './settings.ts';

export class ElectionScheduler {
  private attempts = 0;
  dueAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly settings: CoordinationSettings,
    private readonly random: () => number,
  ) {}

  private delay(): number {
    const s = this.settings;
    const bound = Math.min(
      s.electionInitialTimeoutMs + s.electionBackOffMs * this.attempts,
      s.electionMaxTimeoutMs,
    );
    return 1 + Math.floor(this.random() * bound);
  }

  restart(now: number): void {
    this.attempts = 0;
    this.dueAt = now + this.delay();
  }

  scheduleNext(now: number): void {
    this.attempts++;
    this.dueAt = now + this.settings.electionDurationMs + this.delay();
  }
}

export class PreVoteRound {
  readonly votes: Set<string>;
  started = false;

  constructor(
    readonly round: number,
    localId: string,
    readonly expiresAt: number,
  ) {
    this.votes = new Set([localId]);
  }
}
