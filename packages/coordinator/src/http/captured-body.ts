/**
 * A request whose body is kept as the HTTP parser hands it over, instead of queued in the
 * request's Readable stream. Node's server is given this class (`IncomingMessage` server
 * option): the parser pushes each body chunk, then `null` at the end of the message, and
 * `push` keeps the chunks. Every Shoal handler reads its whole body before it acts, so nothing
 * is lost by skipping the stream: reading a search body through it cost a handful of
 * `process.nextTick` rounds per request (read-more, readable, end-of-stream), and waiting for a
 * body that had not been parsed yet cost a `setImmediate`. `body()` answers at once when the
 * message is complete, else when its last chunk arrives.
 *
 * The stream itself still ends (`push(null)` reaches it, empty), so Node's server drains and
 * recycles the request as it does one without a body.
 */
import { IncomingMessage } from 'node:http';

type Waiter = { resolve: (body: Buffer | undefined) => void; reject: (err: Error) => void };

export class CapturedBodyMessage extends IncomingMessage {
  private chunks: Buffer[] | undefined;
  private size = 0;
  private ended = false;
  private failure: Error | undefined;
  private waiter: Waiter | undefined;

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) {
      if (!this.ended) {
        this.ended = true;
        this.settle();
      }
      return super.push(null);
    }
    if (this.ended || this.failure) return super.push(chunk, encoding);
    const piece = chunk as Buffer;
    if (piece.length > 0) {
      if (this.chunks) this.chunks.push(piece);
      else this.chunks = [piece];
      this.size += piece.length;
    }
    return true;
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.ended && !this.failure) {
      this.failure =
        err ?? new Error('the client closed the connection before the request body was complete');
      this.settle();
    }
    super._destroy(err, callback);
  }

  /**
   * The whole body (undefined when it is empty), once the parser has reached the end of the
   * message; rejects when the connection goes first.
   */
  body(): Buffer | undefined | Promise<Buffer | undefined> {
    if (this.ended) return this.joined();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  private settle(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = undefined;
    if (this.failure) w.reject(this.failure);
    else w.resolve(this.joined());
  }

  private joined(): Buffer | undefined {
    const chunks = this.chunks;
    if (!chunks) return undefined;
    if (chunks.length > 1) this.chunks = [Buffer.concat(chunks, this.size)];
    return this.chunks![0];
  }
}
