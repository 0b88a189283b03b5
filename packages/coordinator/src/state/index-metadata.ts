import type { IndexMapping } from '@shoal/engine';
import type { FlatSettings } from '@shoal/protocol';

export interface AliasMetadata {
  filter?: Record<string, unknown>;
  indexRouting?: string;
  searchRouting?: string;
  isWriteIndex?: boolean;
  isHidden?: boolean;
  /** The alias a data stream reads and writes through (data-streams.ts); not the alias APIs'. */
  dataStream?: boolean;
}

/** One index as the cluster state holds it. Replaced, never mutated, on every change. */
export interface IndexMetadata {
  readonly name: string;
  readonly uuid: string;
  readonly creationDate: number;
  /** Flat canonical setting keys (`index.number_of_shards`) to string values, as ES stores them. */
  readonly settings: Readonly<FlatSettings>;
  readonly mapping: IndexMapping;
  readonly aliases: ReadonlyMap<string, AliasMetadata>;
  readonly numberOfShards: number;
  readonly routingNumShards: number;
  readonly state: 'open' | 'close';
  readonly mappingVersion: number;
  readonly settingsVersion: number;
  readonly aliasesVersion: number;
}
