/**
 * Rollover of an alias (Elasticsearch's MetadataRolloverService): the alias's write index is
 * replaced by a new index — named by the request, or the old name with its trailing number
 * incremented (`logs-000001` → `logs-000002`) — when the conditions hold: at least one `max_*`
 * condition met (or none given) and every `min_*` condition met. The new index gets the
 * templates' parts and the request's; the alias moves to it (an alias with `is_write_index`
 * stays on the old index, no longer the write index). `dry_run` evaluates without changing
 * anything.
 */
import {
  illegalArgument,
  type RolloverCondition,
  type RolloverRequest,
  ShoalError,
  validateIndexName,
} from '@shoal/protocol';
import type { ShardStats } from '@shoal/shard';
import type { NodeServices } from '../services.ts';
import { backingIndexName, type DataStreamMetadata } from './data-streams.ts';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';

export interface RolloverResult {
  acknowledged: boolean;
  shards_acknowledged: boolean;
  old_index: string;
  new_index: string;
  rolled_over: boolean;
  dry_run: boolean;
  lazy: boolean;
  conditions: Record<string, boolean>;
}

/** The figures conditions are checked against: age, primary docs and store, largest primary. */
export interface IndexFigures {
  ageMs: number;
  docs: number;
  bytes: number;
  maxShardBytes: number;
  maxShardDocs: number;
}

export function figuresOf(
  meta: IndexMetadata,
  stats: ReadonlyMap<string, ShardStats>,
  now: number,
): IndexFigures {
  const f: IndexFigures = {
    ageMs: now - meta.creationDate,
    docs: 0,
    bytes: 0,
    maxShardBytes: 0,
    maxShardDocs: 0,
  };
  for (const st of stats.values()) {
    if (!st.key.startsWith(`${meta.uuid}/`)) continue;
    const bytes = st.detail?.storeBytes ?? st.docs.sizeInBytes;
    f.docs += st.docs.count;
    f.bytes += bytes;
    f.maxShardBytes = Math.max(f.maxShardBytes, bytes);
    f.maxShardDocs = Math.max(f.maxShardDocs, st.docs.count);
  }
  return f;
}

function met(c: RolloverCondition, f: IndexFigures): boolean {
  const actual = c.kind.endsWith('_age')
    ? f.ageMs
    : c.kind === 'max_docs' || c.kind === 'min_docs'
      ? f.docs
      : c.kind.endsWith('primary_shard_docs')
        ? f.maxShardDocs
        : c.kind.endsWith('primary_shard_size')
          ? f.maxShardBytes
          : f.bytes;
  return actual >= c.value;
}

/** Whether the conditions call for a rollover, and each condition's outcome. */
export function evaluate(
  conditions: RolloverCondition[],
  f: IndexFigures,
): { roll: boolean; results: Record<string, boolean> } {
  const results: Record<string, boolean> = {};
  let anyMax = false;
  let maxMet = false;
  let minsMet = true;
  for (const c of conditions) {
    const ok = met(c, f);
    results[c.label] = ok;
    if (c.kind.startsWith('max_')) {
      anyMax = true;
      maxMet ||= ok;
    } else {
      minsMet &&= ok;
    }
  }
  return { roll: (!anyMax || maxMet) && minsMet, results };
}

const TRAILING_NUMBER = /^(.*-)(\d+)$/;

/** The next name of a rolled-over index: its trailing number plus one, at least six digits wide. */
export function nextIndexName(source: string): string {
  const m = TRAILING_NUMBER.exec(source);
  if (!m) throw illegalArgument(`index name [${source}] does not match pattern '^.*-\\d+$'`);
  const n = String(Number(m[2]) + 1).padStart(6, '0');
  return `${m[1]}${n}`;
}

type RolloverOptions = { dryRun: boolean; stats: () => Promise<ReadonlyMap<string, ShardStats>> };

/** The conditions checked against the old index, and the answer of a rollover not (yet) done. */
async function considered(
  old: IndexMetadata,
  next: string,
  req: RolloverRequest,
  opts: RolloverOptions,
): Promise<{ roll: boolean; result: RolloverResult }> {
  const figures = req.conditions.length > 0 ? figuresOf(old, await opts.stats(), Date.now()) : undefined;
  const { roll, results } = figures ? evaluate(req.conditions, figures) : { roll: true, results: {} };
  return {
    roll,
    result: {
      acknowledged: false,
      shards_acknowledged: false,
      old_index: old.name,
      new_index: next,
      rolled_over: false,
      dry_run: opts.dryRun,
      lazy: false,
      conditions: results,
    },
  };
}

/** A data stream rolls over to its next generation (its backing index names are its own). */
async function rolloverStream(
  s: NodeServices,
  stream: DataStreamMetadata,
  newName: string | undefined,
  req: RolloverRequest,
  opts: RolloverOptions,
): Promise<RolloverResult> {
  if (newName !== undefined)
    throw illegalArgument('new index name may not be specified when rolling over a data stream');
  if (req.settings !== undefined || req.mappings !== undefined || req.aliases !== undefined) {
    throw illegalArgument(
      'aliases, mappings, and index settings may not be specified when rolling over a data stream',
    );
  }
  const old = s.indices.dataStreams.writeIndex(stream)!;
  const next = backingIndexName(stream.name, stream.generation + 1, Date.now());
  const { roll, result } = await considered(old, next, req, opts);
  if (opts.dryRun || !roll) return result;
  const { newIndex } = await s.indices.dataStreams.rollover(stream);
  return { ...result, new_index: newIndex, acknowledged: true, shards_acknowledged: true, rolled_over: true };
}

/** The write index of an alias, with Elasticsearch's errors for every other kind of target. */
function writeIndexOf(s: NodeServices, target: string): { meta: IndexMetadata; alias: AliasMetadata } {
  if (s.indices.get(target)) {
    throw illegalArgument(
      'rollover target is a [concrete index] but one of [alias,data_stream] was expected',
    );
  }
  const pointed = s.indices.aliasTargets(target);
  if (pointed.length === 0) throw illegalArgument(`rollover target [${target}] does not exist`);
  const write =
    pointed.find((m) => m.aliases.get(target)?.isWriteIndex === true) ??
    (pointed.length === 1 && pointed[0]!.aliases.get(target)?.isWriteIndex !== false
      ? pointed[0]
      : undefined);
  if (!write) throw illegalArgument(`rollover target [${target}] does not point to a write index`);
  return { meta: write, alias: write.aliases.get(target)! };
}

export async function rollover(
  s: NodeServices,
  target: string,
  newName: string | undefined,
  req: RolloverRequest,
  opts: RolloverOptions,
): Promise<RolloverResult> {
  const stream = s.indices.dataStreams.get(target);
  if (stream) return rolloverStream(s, stream, newName, req, opts);
  const { meta: old, alias } = writeIndexOf(s, target);
  const next = newName ?? nextIndexName(old.name);
  validateIndexName(next);
  if (s.indices.get(next)) {
    throw new ShoalError(
      'resource_already_exists_exception',
      `index [${next}/${s.indices.get(next)!.uuid}] already exists`,
      400,
      {
        index_uuid: s.indices.get(next)!.uuid,
        index: next,
      },
    );
  }
  const { roll, result } = await considered(old, next, req, opts);
  if (opts.dryRun || !roll) return result;
  const aliases = { ...((req.aliases as Record<string, unknown>) ?? {}) };
  await s.indices.create(next, { settings: req.settings, mappings: req.mappings, aliases });
  // The alias moves to the new index; kept on the old one only when it names a write index.
  const moved = new Map<string, Map<string, AliasMetadata>>();
  const current = s.indices.get(next)!;
  const oldAliases = new Map(old.aliases);
  if (alias.isWriteIndex === true) oldAliases.set(target, { ...alias, isWriteIndex: false });
  else oldAliases.delete(target);
  const newAliases = new Map(current.aliases);
  newAliases.set(target, alias.isWriteIndex === true ? { ...alias, isWriteIndex: true } : { ...alias });
  moved.set(old.name, oldAliases);
  moved.set(next, newAliases);
  await s.indices.applyAliases(moved);
  return { ...result, acknowledged: true, shards_acknowledged: true, rolled_over: true };
}
