/**
 * The mapping tree, immutable once built: objects (plain or nested) hold children by leaf name;
 * leaf fields hold the parameters that were set (parsed values), their multi-fields and copy_to.
 */
import type { RuntimeFieldSpec } from '@shoal/protocol';
import type { LeafType } from './params.ts';

/** `runtime`: new fields become runtime fields of the type detected, read from `_source`. */
export type Dynamic = 'true' | 'false' | 'strict' | 'runtime';

export interface FieldNode {
  readonly kind: 'field';
  readonly name: string;
  readonly path: string;
  readonly type: LeafType;
  /** Parameters that were set, by name. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly fields: ReadonlyMap<string, FieldNode>;
  readonly copyTo: readonly string[];
}

export interface ObjectNode {
  readonly kind: 'object' | 'nested';
  readonly name: string;
  /** Full path; the empty string for the root. */
  readonly path: string;
  readonly dynamic?: Dynamic;
  /** Set only when given explicitly. */
  readonly enabled?: boolean;
  readonly includeInParent?: boolean;
  readonly includeInRoot?: boolean;
  readonly children: ReadonlyMap<string, MapperNode>;
}

export type MapperNode = FieldNode | ObjectNode;

export interface SourceConfig {
  enabled?: boolean;
  mode?: string;
  includes?: string[];
  excludes?: string[];
}

export interface RootNode {
  readonly object: ObjectNode;
  readonly dateDetection?: boolean;
  readonly numericDetection?: boolean;
  readonly dynamicDateFormats?: readonly string[];
  /** As given; applied to new fields by dynamic-templates.ts. */
  readonly dynamicTemplates?: readonly unknown[];
  readonly source?: SourceConfig;
  readonly routingRequired?: boolean;
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * The `runtime` section: fields computed at search time, by name. In a parsed update a
   * `null` definition removes the field when merged.
   */
  readonly runtime?: Readonly<Record<string, RuntimeFieldSpec | null>>;
}

export const ROOT_NAME = '_doc';

export function emptyRoot(): RootNode {
  return { object: { kind: 'object', name: ROOT_NAME, path: '', children: new Map() } };
}

export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
