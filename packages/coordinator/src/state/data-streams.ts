/**
 * Data streams (Elasticsearch's MetadataCreateDataStreamService and DataStream): a name that
 * reads over a series of hidden backing indices, `.ds-<stream>-<yyyy.MM.dd>-<generation>`, and
 * writes to the newest. A stream is made from a composable template with `data_stream: {}` —
 * by `PUT /_data_stream/{name}` or by a first write to a matching name — and every backing
 * index gets that template's settings and mappings, with `@timestamp` mapped as a date.
 *
 * A stream reaches its backing indices through an alias of its name that only Shoal manages
 * (flagged `dataStream`, hidden from the alias APIs): searches, counts, PIT, scroll and slices
 * resolve it as any alias, wildcards included, and writes go to its write index — the newest.
 * The stream's own record (generation, template, timestamp field) is kept durable beside the
 * node's metadata.
 */
import { illegalArgument, indexNotFound, invalidIndexNameReason, ShoalError } from '@shoal/protocol';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';
import { mergeMappings } from './index-templates.ts';
import type { IndicesService } from './indices-service.ts';
import { simpleMatch } from './template-patterns.ts';

export const TIMESTAMP_FIELD = '@timestamp';

export interface DataStreamMetadata {
  name: string;
  /** Backing index names, oldest first; the last is the write index. */
  indices: string[];
  generation: number;
  template: string;
  hidden: boolean;
  allowCustomRouting: boolean;
  createdAt: number;
}

export interface DataStreamsStore {
  loadDataStreams(): DataStreamMetadata[] | undefined;
  saveDataStreams(streams: DataStreamMetadata[]): void;
}

/** `.ds-<stream>-<yyyy.MM.dd>-<generation, six digits>` (DataStream.getDefaultBackingIndexName). */
export function backingIndexName(stream: string, generation: number, epochMs: number): string {
  const d = new Date(epochMs);
  const date = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`;
  return `.ds-${stream}-${date}-${String(generation).padStart(6, '0')}`;
}

export function dataStreamNotFound(name: string): ShoalError {
  return indexNotFound(name);
}

export class DataStreams {
  private readonly streams = new Map<string, DataStreamMetadata>();

  constructor(
    private readonly indices: IndicesService,
    private readonly store?: DataStreamsStore,
  ) {
    for (const s of store?.loadDataStreams() ?? []) this.streams.set(s.name, s);
  }

  private save(): void {
    this.store?.saveDataStreams([...this.streams.values()]);
  }

  get(name: string): DataStreamMetadata | undefined {
    return this.streams.get(name);
  }

  /** The streams an expression names (comma list, wildcards; all when none). */
  select(expression: string | undefined, includeHidden = false): DataStreamMetadata[] {
    const parts = (expression ?? '*')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const out: DataStreamMetadata[] = [];
    for (const part of parts) {
      if (part.includes('*') || part === '_all') {
        for (const s of this.streams.values()) {
          if (
            (part === '_all' || simpleMatch(part, s.name)) &&
            (includeHidden || !s.hidden || part.startsWith('.'))
          ) {
            if (!out.includes(s)) out.push(s);
          }
        }
        continue;
      }
      const s = this.streams.get(part);
      if (!s) throw dataStreamNotFound(part);
      if (!out.includes(s)) out.push(s);
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The stream whose backing index this is. */
  ofIndex(index: string): DataStreamMetadata | undefined {
    for (const s of this.streams.values()) if (s.indices.includes(index)) return s;
    return undefined;
  }

  /** Creates a stream from the data stream template its name matches, with its first backing index. */
  async create(name: string): Promise<DataStreamMetadata> {
    if (this.streams.has(name)) {
      throw new ShoalError('resource_already_exists_exception', `data_stream [${name}] already exists`, 400);
    }
    const invalid = invalidIndexNameReason(name);
    if (invalid)
      throw new ShoalError('invalid_index_name_exception', `Invalid index name [${name}], ${invalid}`, 400, {
        index_uuid: '_na_',
        index: name,
      });
    if (this.indices.get(name) || this.indices.aliasTargets(name).length > 0) {
      throw illegalArgument(
        `data stream could not be created because backing index [${name}] already exists`,
      );
    }
    const found = this.indices.templates.findComposable(name);
    if (!found) throw illegalArgument(`no matching index template found for data stream [${name}]`);
    const [templateName, template] = found;
    if (!template.dataStream) {
      throw illegalArgument(
        `matching index template [${templateName}] for data stream [${name}] has no data stream template`,
      );
    }
    const stream: DataStreamMetadata = {
      name,
      indices: [],
      generation: 0,
      template: templateName,
      hidden: template.dataStream.hidden,
      allowCustomRouting: template.dataStream.allowCustomRouting,
      createdAt: Date.now(),
    };
    await this.addBackingIndex(stream);
    this.streams.set(name, stream);
    this.save();
    return stream;
  }

  /** A new write index for the stream: the next generation (rollover). Returns its name. */
  async rollover(stream: DataStreamMetadata): Promise<{ oldIndex: string; newIndex: string }> {
    const oldIndex = stream.indices[stream.indices.length - 1]!;
    const newIndex = await this.addBackingIndex(stream);
    this.save();
    return { oldIndex, newIndex };
  }

  private async addBackingIndex(stream: DataStreamMetadata): Promise<string> {
    const generation = stream.generation + 1;
    const name = backingIndexName(stream.name, generation, Date.now());
    const template = this.indices.templates.getComposable(stream.template)[0]?.[1];
    if (!template) {
      throw illegalArgument(`no matching index template found for data stream [${stream.name}]`);
    }
    const composed = this.indices.templates.composeFrom(template);
    const mappings = withTimestamp(composed.mappings);
    await this.indices.create(name, {
      settings: { ...composed.settings, 'index.hidden': 'true' },
      mappings,
    });
    // The stream's alias moves its write index to the new generation.
    const next = new Map<string, Map<string, AliasMetadata>>();
    for (const old of stream.indices) {
      const meta = this.indices.get(old);
      if (!meta) continue;
      const aliases = new Map(meta.aliases);
      aliases.set(stream.name, streamAlias(stream, false));
      next.set(old, aliases);
    }
    const created = this.indices.get(name)!;
    next.set(name, new Map(created.aliases).set(stream.name, streamAlias(stream, true)));
    await this.indices.applyAliases(next);
    stream.indices.push(name);
    stream.generation = generation;
    return name;
  }

  async delete(streams: DataStreamMetadata[]): Promise<void> {
    for (const s of streams) {
      this.streams.delete(s.name);
      for (const index of s.indices) {
        const meta = this.indices.get(index);
        if (meta) await this.indices.delete(meta);
      }
    }
    this.save();
  }

  /** A backing index deleted on its own (not the write index): the stream no longer lists it. */
  forgetIndex(index: string): void {
    const s = this.ofIndex(index);
    if (!s) return;
    s.indices = s.indices.filter((n) => n !== index);
    this.save();
  }

  /**
   * `_modify`: backing indices added to or removed from streams, all checked before any is
   * applied. A stream's write index cannot be removed; an added index becomes hidden and joins
   * the stream's alias, before the write index.
   */
  async modify(actions: { kind: 'add' | 'remove'; stream: string; index: string }[]): Promise<void> {
    for (const a of actions) {
      const stream = this.streams.get(a.stream);
      if (!stream) throw dataStreamNotFound(a.stream);
      const meta = this.indices.get(a.index);
      if (!meta) throw indexNotFound(a.index);
      if (a.kind === 'remove') {
        if (!stream.indices.includes(a.index)) {
          throw illegalArgument(`index [${a.index}] not found in data stream [${a.stream}]`);
        }
        if (stream.indices[stream.indices.length - 1] === a.index) {
          throw illegalArgument(
            `cannot remove backing index [${a.index}] of data stream [${a.stream}] because it is the write index`,
          );
        }
      } else {
        const other = this.ofIndex(a.index);
        if (other && other !== stream) {
          throw illegalArgument(
            `cannot add index [${a.index}] to data stream [${a.stream}] until its alias [${other.name}] is removed`,
          );
        }
        if ([...meta.aliases.keys()].some((n) => !meta.aliases.get(n)?.dataStream)) {
          throw illegalArgument(
            `cannot add index [${a.index}] to data stream [${a.stream}] until its aliases [${[...meta.aliases.keys()].join(', ')}] are removed`,
          );
        }
      }
    }
    for (const a of actions) {
      const stream = this.streams.get(a.stream)!;
      const meta = this.indices.get(a.index)!;
      const aliases = new Map(meta.aliases);
      if (a.kind === 'remove') {
        stream.indices = stream.indices.filter((n) => n !== a.index);
        aliases.delete(stream.name);
      } else if (!stream.indices.includes(a.index)) {
        stream.indices.splice(stream.indices.length - 1, 0, a.index);
        aliases.set(stream.name, streamAlias(stream, false));
        await this.indices.updateSettings([meta], { 'index.hidden': true });
      }
      await this.indices.applyAliases(new Map([[a.index, aliases]]));
    }
    this.save();
  }

  /**
   * `_migrate`: an alias with a write index becomes a data stream of its name. Its indices must
   * map `@timestamp` as a date; they become the stream's hidden backing indices, its write
   * index last, and the alias is the stream's.
   */
  async migrate(alias: string): Promise<DataStreamMetadata> {
    const members = this.indices.aliasTargets(alias);
    if (members.length === 0 || this.streams.has(alias))
      throw illegalArgument(`alias [${alias}] does not exist`);
    const write =
      members.find((m) => m.aliases.get(alias)?.isWriteIndex === true) ??
      (members.length === 1 ? members[0] : undefined);
    if (!write) throw illegalArgument(`alias [${alias}] must specify a write index`);
    const found = this.indices.templates.findComposable(alias);
    if (!found?.[1].dataStream)
      throw illegalArgument(`no matching index template found for data stream [${alias}]`);
    for (const m of members) {
      const ts = m.mapping.field(TIMESTAMP_FIELD);
      if (ts?.type !== 'date' && ts?.type !== 'date_nanos') {
        throw illegalArgument(`data stream timestamp field [${TIMESTAMP_FIELD}] does not exist`);
      }
    }
    const ordered = [
      ...members.filter((m) => m !== write).sort((a, b) => a.creationDate - b.creationDate),
      write,
    ];
    const stream: DataStreamMetadata = {
      name: alias,
      indices: ordered.map((m) => m.name),
      generation: ordered.length,
      template: found[0],
      hidden: found[1].dataStream.hidden,
      allowCustomRouting: found[1].dataStream.allowCustomRouting,
      createdAt: Date.now(),
    };
    await this.indices.updateSettings(ordered, { 'index.hidden': true });
    const next = new Map<string, Map<string, AliasMetadata>>();
    for (const m of ordered) {
      const current = this.indices.get(m.name)!;
      next.set(m.name, new Map(current.aliases).set(alias, streamAlias(stream, m === write)));
    }
    await this.indices.applyAliases(next);
    this.streams.set(alias, stream);
    this.save();
    return stream;
  }

  /** The write index of a stream (its newest backing index). */
  writeIndex(stream: DataStreamMetadata): IndexMetadata | undefined {
    return this.indices.get(stream.indices[stream.indices.length - 1]!);
  }
}

/** The alias a stream reads and writes through; a hidden stream's is hidden from wildcards. */
function streamAlias(stream: DataStreamMetadata, write: boolean): AliasMetadata {
  const a: AliasMetadata = { dataStream: true, isWriteIndex: write };
  if (stream.hidden) a.isHidden = true;
  return a;
}

/**
 * The mappings of a backing index: `@timestamp` a date unless the template maps it as a date
 * or date_nanos already; any other type is refused (DataStreamTimestampFieldMapper).
 */
export function withTimestamp(mappings: Record<string, unknown>): Record<string, unknown> {
  const props = (mappings.properties ?? {}) as Record<string, Record<string, unknown>>;
  const ts = props[TIMESTAMP_FIELD];
  if (ts && ts.type !== 'date' && ts.type !== 'date_nanos') {
    throw illegalArgument(
      `data stream timestamp field [${TIMESTAMP_FIELD}] is of type [${String(ts.type)}], but [date,date_nanos] is expected`,
    );
  }
  if (ts) return mappings;
  return mergeMappings(mappings, { properties: { [TIMESTAMP_FIELD]: { type: 'date' } } });
}
