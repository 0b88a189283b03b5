/**
 * The V8 flags a Shoal node process runs with: `npm run cluster`, the benchmarks and the tests
 * start nodes with them (they must be on the command line: V8 reads them as the heap is set up).
 *
 * `--no-memory-reducer`: the node's main thread spends much of a busy minute waiting on its
 * shard threads, which V8's memory reducer takes for idleness: it then runs a full collection
 * every few dozen pages of a scroll (every ~100 ms), to give back memory the next page needs
 * again. Without it the heap grows and shrinks with V8's ordinary allocation limits, as a
 * server's should.
 */
export const NODE_V8_FLAGS: readonly string[] = ['--no-memory-reducer'];
