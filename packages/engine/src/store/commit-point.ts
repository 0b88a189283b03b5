/**
 * Commit points (Lucene's `segments_N`): the list of segment files, with their lengths and
 * checksums and their live-docs files, plus what recovery needs to know about the translog:
 * the highest seq_no the segments hold (the local checkpoint: a shard applies writes in seq_no
 * order, so every op up to it is in) and the first translog generation still needed.
 *
 * `commit_<N>` is JSON followed by its CRC-32C and a magic number, written atomically (temp
 * file, fsync, rename, fsync the folder). The newest readable commit is the shard's state.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptionError, checksum } from './checksum.ts';
import { readFileOrUndefined, writeFileAtomic } from './files.ts';

const MAGIC = 0x504d4f43; // "COMP"

export interface CommittedSegment {
  name: string;
  file: string;
  length: number;
  crc: number;
  maxDoc: number;
  /** Deleted docs as of this commit, and the file holding them (absent when none). */
  delCount: number;
  delFile?: string;
  delCrc?: number;
}

export interface CommitPoint {
  generation: number;
  segments: CommittedSegment[];
  localCheckpoint: number;
  maxSeqNo: number;
  primaryTerm: number;
  translogUuid: string;
  /** The oldest translog generation recovery replays. */
  translogGeneration: number;
  /** Segment names are `_<gen in base 36>`; the next one to hand out. */
  nextSegmentGen: number;
}

export const commitFileName = (gen: number) => `commit_${gen}`;

export function commitGenerations(dir: string): number[] {
  return readdirSync(dir)
    .map((n) => /^commit_(\d+)$/.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export function writeCommit(dir: string, commit: CommitPoint): void {
  const json = new TextEncoder().encode(JSON.stringify(commit));
  const out = new Uint8Array(json.length + 8);
  out.set(json);
  const v = new DataView(out.buffer);
  v.setUint32(json.length, checksum(json), true);
  v.setUint32(json.length + 4, MAGIC, true);
  writeFileAtomic(join(dir, commitFileName(commit.generation)), out);
}

export function readCommit(dir: string, gen: number): CommitPoint {
  const path = join(dir, commitFileName(gen));
  const bytes = readFileOrUndefined(path);
  if (!bytes || bytes.length < 8) throw new CorruptionError(path, 'commit point is missing or too short');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length - 8;
  if (v.getUint32(n + 4, true) !== MAGIC || v.getUint32(n, true) !== checksum(bytes.subarray(0, n))) {
    throw new CorruptionError(path, 'commit point checksum failed');
  }
  return JSON.parse(new TextDecoder().decode(bytes.subarray(0, n))) as CommitPoint;
}
