/**
 * Where a scroll stands: the step its next page is and, per shard, how many of the hits that
 * shard returned on the step before the page consumed. The cursor belongs to the scroll's lease,
 * not to an id: every continuation on a live scroll goes on from where the scroll stands and
 * moves it forward, whichever of the scroll's ids the client presents — Elasticsearch's contract
 * (its `scroll/10_basic` test continues twice with the first id and gets two different pages).
 *
 * Continuations of one scroll run one at a time, in the order they arrive, so two clients
 * sharing an id never read one position twice or skip one.
 *
 * A page the node knows it did not deliver (the connection closed before the response was
 * written out) is given back: `undo` puts the cursor where it stood before that page, so the
 * next continuation answers the same page again. Only the latest page can be given back, and
 * only while no later continuation has moved the cursor.
 */
export interface ScrollPoint {
  step: number;
  /** Per shard, in shard-index order: the hits of the previous step the page consumed. */
  consumed: readonly number[];
}

export interface CursorTurn<T> {
  value: T;
  /** Gives the page back: the next continuation answers it again. */
  undo(): void;
}

const noop = () => {};

export class ScrollCursor {
  private queue: Promise<void> = Promise.resolve();

  constructor(private point: ScrollPoint) {}

  get at(): ScrollPoint {
    return this.point;
  }

  /**
   * Runs one continuation once those before it have finished: `page` reads the page at the
   * point the scroll stands at and says where it leads. A failed page leaves the cursor where
   * it was.
   */
  turn<T>(page: (at: ScrollPoint) => Promise<{ value: T; next: ScrollPoint }>): Promise<CursorTurn<T>> {
    const run = this.queue.then(async (): Promise<CursorTurn<T>> => {
      const at = this.point;
      const { value, next } = await page(at);
      this.point = next;
      return {
        value,
        undo: () => {
          if (this.point === next) this.point = at;
        },
      };
    });
    this.queue = run.then(noop, noop);
    return run;
  }
}
