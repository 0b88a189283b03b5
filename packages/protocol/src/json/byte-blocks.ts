/**
 * Short-lived byte buffers cut from blocks of 64 KiB, each 8-byte aligned (typed views of
 * packed replies need it). One allocation serves dozens of the buffers a search makes — a
 * shard reply copied out of its slot, a response body — where Node's 8 KiB pool is refilled
 * every few and a larger buffer is an allocation of its own. Memory is never handed out twice:
 * a block is reclaimed by the garbage collector once no buffer cut from it is alive. Like
 * Node's pool, a block cannot be transferred to another thread (that would take every buffer
 * cut from it).
 */
import { markAsUntransferable } from 'node:worker_threads';

const BLOCK_BYTES = 64 * 1024;
/** Larger requests get a buffer of their own (a block would hold few of them). */
const OWN_BUFFER_FROM = BLOCK_BYTES / 4;

let block: ArrayBuffer | undefined;
let used = 0;

/** `length` bytes of uninitialised memory, starting at a multiple of 8 in their ArrayBuffer. */
export function blockBytes(length: number): Buffer {
  if (length >= OWN_BUFFER_FROM) return Buffer.allocUnsafeSlow(length);
  const aligned = (length + 7) & ~7;
  if (block === undefined || used + aligned > BLOCK_BYTES) {
    // Uninitialised, as Node's own pool is: every byte handed out is written before it is read.
    block = Buffer.allocUnsafeSlow(BLOCK_BYTES).buffer as ArrayBuffer;
    markAsUntransferable(block);
    used = 0;
  }
  const out = Buffer.from(block, used, length);
  used += aligned;
  return out;
}
