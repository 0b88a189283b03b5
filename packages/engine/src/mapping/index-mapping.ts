/**
 * IndexMapping (contract.ts) over the mapping tree: parsing and validation on creation, merges
 * for PUT _mapping and dynamic updates, `GET _mapping` rendering, field lookups for the query
 * side, and document parsing through the compiled form (built once per mapping version).
 */
import { isShoalError, type RuntimeMappings } from '@shoal/protocol';
import type { IndexMapping, ParsedDocument, ResolvedField } from '../contract.ts';
import { DEFAULT_DYNAMIC_DATE_FORMATS } from '../dates/index.ts';
import { type CompiledTables, compileRoot, type MappedField } from './compiled.ts';
import { parseDocumentWith } from './document-parser.ts';
import type { DocumentParserMapping } from './document-values.ts';
import { compileTemplates } from './dynamic-templates.ts';
import { failedToParseMapping } from './errors.ts';
import { checkAliases } from './field-aliases.ts';
import { checkLimits, countFields, DEFAULT_LIMITS, type MappingLimits } from './limits.ts';
import { mergeRoot } from './merge.ts';
import type { RootNode, SourceConfig } from './nodes.ts';
import { parseRoot } from './parse-mapping.ts';
import { renderRoot } from './render.ts';
import { type SourceKeeper, sourceKeeper } from './stored-source.ts';

export interface IndexMappingOptions {
  indexName: string;
  /** Default for `date_detection` when the mapping does not set it (Elasticsearch: true). */
  dateDetection?: boolean;
  /** index.mapping.total_fields.limit (default 1000). */
  totalFieldsLimit?: number;
  /** index.mapping.depth.limit (default 20). */
  depthLimit?: number;
  /** index.mapping.nested_fields.limit (default 50). */
  nestedFieldsLimit?: number;
  /** index.mapping.field_name_length.limit (default: none). */
  fieldNameLengthLimit?: number;
  /** index.mapping.nested_objects.limit (default 10000). */
  nestedObjectsLimit?: number;
  /** index.mapping.coerce (default true). */
  coerce?: boolean;
  /** index.mapping.ignore_malformed (default false). */
  ignoreMalformed?: boolean;
}

/** Parses a mappings body, wrapping failures as `Failed to parse mapping: …` (MappingParser). */
function parseWrapped(json: Record<string, unknown> | undefined): RootNode {
  try {
    return parseRoot(json);
  } catch (e) {
    // 501 (a feature Shoal lacks) is not the client's malformed mapping.
    if (isShoalError(e) && e.status !== 501) throw failedToParseMapping(e);
    throw e;
  }
}

function limitsOf(opts: IndexMappingOptions): MappingLimits {
  return {
    totalFields: opts.totalFieldsLimit ?? DEFAULT_LIMITS.totalFields,
    depth: opts.depthLimit ?? DEFAULT_LIMITS.depth,
    nestedFields: opts.nestedFieldsLimit ?? DEFAULT_LIMITS.nestedFields,
    fieldNameLength: opts.fieldNameLengthLimit ?? DEFAULT_LIMITS.fieldNameLength,
    nestedObjects: opts.nestedObjectsLimit ?? DEFAULT_LIMITS.nestedObjects,
  };
}

/** `_ignored`: the fields a document had values of that were left out (ignore_malformed, ignore_above). */
const IGNORED_FIELD: MappedField = { path: '_ignored', type: 'keyword', index: true, docValues: true };

/** `_routing`: searchable, not aggregatable. */
const ROUTING_FIELD: MappedField = { path: '_routing', type: 'keyword', index: true, docValues: false };

function wildcardRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

export class ShoalIndexMapping implements IndexMapping {
  readonly indexName: string;
  private readonly tables: CompiledTables;
  private readonly parserView: DocumentParserMapping;
  private rendered: Record<string, unknown> | undefined;
  private readonly keepSource: SourceKeeper | undefined;
  private readonly keyed = new Map<string, MappedField>();
  private runtime: RuntimeMappings | undefined;

  constructor(
    readonly root: RootNode,
    private readonly opts: IndexMappingOptions,
  ) {
    this.indexName = opts.indexName;
    const settings = { coerce: opts.coerce ?? true, ignoreMalformed: opts.ignoreMalformed ?? false };
    this.tables = compileRoot(root.object, settings);
    this.keepSource = sourceKeeper(root.source);
    const limits = limitsOf(opts);
    const constantFields = [...this.tables.fields.values()].filter((f) => f.type === 'constant_keyword');
    this.parserView = {
      root: this.tables.root,
      fields: this.tables.fields,
      constantFields,
      templates: compileTemplates(root.dynamicTemplates),
      fieldCount: countFields(root.object),
      totalFieldsLimit: limits.totalFields,
      depthLimit: limits.depth,
      nestedObjectsLimit: limits.nestedObjects,
      dateDetection: root.dateDetection ?? opts.dateDetection ?? true,
      numericDetection: root.numericDetection ?? false,
      dynamicDateFormats: root.dynamicDateFormats ?? DEFAULT_DYNAMIC_DATE_FORMATS,
      settings,
      runtimeNames: new Set(Object.keys(root.runtime ?? {}).filter((k) => root.runtime?.[k])),
    };
  }

  toJSON(): Record<string, unknown> {
    this.rendered ??= renderRoot(this.root);
    return structuredClone(this.rendered);
  }

  /** The mapping as responses print it: doubles and floats with their `.0` (RawJson values). */
  toDisplayJSON(): Record<string, unknown> {
    return renderRoot(this.root, true);
  }

  merge(update: Record<string, unknown>): ShoalIndexMapping {
    const incoming = parseWrapped(update);
    const merged = mergeRoot(this.root, incoming);
    checkLimits(merged, limitsOf(this.opts));
    checkAliases(merged);
    return new ShoalIndexMapping(merged, this.opts);
  }

  /**
   * A field by path: a leaf or multi-field, the target of an alias, a flattened field's keyed
   * sub-field (`labels.env`, a keyword), or the `_ignored` metadata field.
   */
  field(path: string): MappedField | undefined {
    const f = this.tables.fields.get(path);
    if (f) {
      if (f.type !== 'alias') return f.resolved;
      return this.tables.fields.get(f.aliasPath!)?.resolved;
    }
    if (path === '_ignored') return IGNORED_FIELD;
    if (path === '_routing') return ROUTING_FIELD;
    return this.keyedField(path);
  }

  private keyedField(path: string): MappedField | undefined {
    for (let at = path.lastIndexOf('.'); at > 0; at = path.lastIndexOf('.', at - 1)) {
      const parent = this.tables.fields.get(path.slice(0, at));
      if (parent?.type !== 'flattened') continue;
      let cached = this.keyed.get(path);
      if (!cached) {
        const r = parent.resolved;
        cached = { path, type: 'keyword', index: r.index, docValues: r.docValues, mappedType: 'flattened' };
        this.keyed.set(path, cached);
      }
      return cached;
    }
    return undefined;
  }

  fieldsMatching(pattern: string): ResolvedField[] {
    if (!pattern.includes('*')) {
      const f = this.field(pattern);
      return f ? [f] : [];
    }
    const re = wildcardRegExp(pattern);
    const out: ResolvedField[] = [];
    // An alias is found by its own name (field()); a pattern reaches its target directly.
    for (const [path, f] of this.tables.fields) if (f.type !== 'alias' && re.test(path)) out.push(f.resolved);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  isObject(path: string): boolean {
    return this.tables.objects.has(path);
  }

  /** Whether `path` is a nested object. */
  isNested(path: string): boolean {
    return this.tables.objects.get(path)?.nested ?? false;
  }

  /** Every leaf field and multi-field, in mapping order. */
  allFields(): MappedField[] {
    return [...this.tables.fields.values()].filter((f) => f.type !== 'alias').map((f) => f.resolved);
  }

  get routingRequired(): boolean {
    return this.root.routingRequired ?? false;
  }

  /** `_source` settings as given (`enabled`, `includes`, `excludes`). */
  get source(): Readonly<SourceConfig> {
    return this.root.source ?? {};
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.root.meta;
  }

  /** The `runtime` section's fields, by name (every search asks: built once). */
  runtimeFields(): RuntimeMappings {
    if (this.runtime === undefined) {
      const out: RuntimeMappings = {};
      for (const [name, def] of Object.entries(this.root.runtime ?? {})) if (def) out[name] = def;
      this.runtime = out;
    }
    return this.runtime;
  }

  /** Fields counted against index.mapping.total_fields.limit. */
  get totalFields(): number {
    return this.parserView.fieldCount;
  }

  parseDocument(
    id: string,
    source: Uint8Array,
    routing?: string,
    dynamicTemplates?: Record<string, string>,
  ): { doc: ParsedDocument; dynamicUpdate?: Record<string, unknown> } {
    const parsed = parseDocumentWith(this.parserView, id, source, routing, dynamicTemplates);
    if (this.keepSource) parsed.doc.storedSource = this.keepSource(source);
    return parsed;
  }

  /** Whether documents keep their `_source` (`_source.enabled` is not false). */
  get sourceEnabled(): boolean {
    const s = this.root.source;
    return s?.enabled !== false && s?.mode !== 'disabled';
  }
}

/**
 * The mapping of a new index from its `mappings` body (undefined for none). Throws
 * mapper_parsing_exception `Failed to parse mapping: …` for a bad body and
 * illegal_argument_exception for limits.
 */
export function createIndexMapping(
  json: Record<string, unknown> | undefined,
  opts: IndexMappingOptions,
): ShoalIndexMapping {
  const root = parseWrapped(json);
  checkLimits(root, limitsOf(opts));
  checkAliases(root);
  return new ShoalIndexMapping(root, opts);
}

/**
 * A mapping the cluster has already accepted, rebuilt (a restart, a shard opening, new
 * `index.mapping.*` settings): its limits are not checked again, as Elasticsearch's
 * MAPPING_RECOVERY merges skip them, so a limit lowered below the mapping's size only stops the
 * next new field.
 */
export function restoreIndexMapping(
  json: Record<string, unknown> | undefined,
  opts: IndexMappingOptions,
): ShoalIndexMapping {
  return new ShoalIndexMapping(parseWrapped(json), opts);
}

/** Validates a `mappings` body without keeping it (create-index request validation). */
export function validateMappingJson(
  json: Record<string, unknown> | undefined,
  opts: IndexMappingOptions = { indexName: '_validate' },
): void {
  const root = parseWrapped(json);
  checkLimits(root, limitsOf(opts));
  checkAliases(root);
}
