/**
 * Index templates (Elasticsearch's MetadataIndexTemplateService): composable templates, the
 * component templates they are composed of, and the legacy templates of `/_template`, kept
 * durable beside the node's metadata. When an index is created — explicitly or by a first
 * write — the composable template of highest priority whose patterns match its name gives its
 * settings, mappings and aliases (its components' first, in order, then its own, then the
 * request's); when none matches, every matching legacy template does, in `order`.
 *
 * A template is checked when it is put: its components exist, no other template of the same
 * priority can match the same index, and the index it would make is valid (settings, mappings,
 * aliases), so a bad template is refused then instead of failing every later index creation.
 */
import { createIndexMapping } from '@shoal/engine';
import {
  type ComponentTemplate,
  type ComposableTemplate,
  type FlatSettings,
  illegalArgument,
  type LegacyTemplate,
  normalizeSettings,
  resourceNotFound,
  ShoalError,
  validateSettings,
} from '@shoal/protocol';
import { matchesAny, overlapping, simpleMatch } from './template-patterns.ts';

export interface ComposedIndex {
  settings: FlatSettings;
  mappings: Record<string, unknown>;
  aliases: Record<string, Record<string, unknown>>;
}

export interface TemplatesJson {
  composable: Record<string, ComposableTemplate>;
  components: Record<string, ComponentTemplate>;
  legacy: Record<string, LegacyTemplate>;
}

export interface TemplatesStore {
  loadTemplates(): TemplatesJson | undefined;
  saveTemplates(json: TemplatesJson): void;
}

/** Deep merge of mappings as an index template merge does it: objects merged, leaves replaced. */
export function mergeMappings(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, v] of Object.entries(b)) {
    const prev = out[key];
    const bothObjects = isPlain(prev) && isPlain(v);
    // A field definition with a type replaces the one before; object fields and `properties` merge.
    if (
      bothObjects &&
      (key === 'properties' || !('type' in v) || v.type === 'object' || v.type === 'nested')
    ) {
      out[key] = mergeMappings(prev, v);
    } else {
      out[key] = v;
    }
  }
  return out;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function names(expression: string | undefined): string[] {
  return (expression ?? '*')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** The entries of `map` named by a comma list of names and wildcards (all when none). */
function select<T>(map: ReadonlyMap<string, T>, expression: string | undefined): [string, T][] {
  const wanted = names(expression);
  return [...map].filter(([n]) => wanted.some((w) => w === '_all' || simpleMatch(w, n)));
}

export class IndexTemplates {
  private readonly composable = new Map<string, ComposableTemplate>();
  private readonly components = new Map<string, ComponentTemplate>();
  private readonly legacy = new Map<string, LegacyTemplate>();

  constructor(private readonly store?: TemplatesStore) {
    const json = store?.loadTemplates();
    if (!json) return;
    for (const [n, t] of Object.entries(json.composable)) this.composable.set(n, t);
    for (const [n, t] of Object.entries(json.components)) this.components.set(n, t);
    for (const [n, t] of Object.entries(json.legacy)) this.legacy.set(n, t);
  }

  private save(): void {
    this.store?.saveTemplates({
      composable: Object.fromEntries(this.composable),
      components: Object.fromEntries(this.components),
      legacy: Object.fromEntries(this.legacy),
    });
  }

  // ---------------------------------------------------------------- composable templates

  /** Puts a composable template; returns the warnings Elasticsearch gives with it. */
  putComposable(name: string, t: ComposableTemplate, create: boolean): string[] {
    if (create && this.composable.has(name)) throw illegalArgument(`index template [${name}] already exists`);
    const missing = t.composedOf.filter(
      (c) => !this.components.has(c) && !t.ignoreMissingComponentTemplates.includes(c),
    );
    if (missing.length > 0) {
      throw illegalArgument(
        `index template [${name}] specifies component templates [${missing.join(', ')}] that do not exist`,
      );
    }
    if (t.indexPatterns.includes('*') && t.template?.settings?.['index.hidden'] !== undefined) {
      throw new ShoalError(
        'invalid_index_template_exception',
        `index_template [${name}] invalid, cause [global composable templates may not specify the setting index.hidden]`,
        400,
      );
    }
    const priority = t.priority ?? 0;
    const clashes = [...this.composable].filter(
      ([other, o]) =>
        other !== name && (o.priority ?? 0) === priority && overlapping(t.indexPatterns, o.indexPatterns),
    );
    if (clashes.length > 0) {
      throw illegalArgument(
        `index template [${name}] has index patterns [${t.indexPatterns.join(', ')}] matching patterns from existing templates [${clashes.map(([n]) => n).join(', ')}] with patterns (${clashes.map(([n, o]) => `${n} => [${o.indexPatterns.join(', ')}]`).join(',')}) that have the same priority [${priority}], multiple index templates may not match during index creation, please use a different priority`,
      );
    }
    this.validateComposed(
      t.composedOf.length > 0
        ? `composable template [${name}] template after composition with component templates [${t.composedOf.join(', ')}]`
        : `composable template [${name}] template after composition`,
      this.composeFrom(t),
    );
    const warnings: string[] = [];
    const older = [...this.legacy].filter(([, o]) => overlapping(t.indexPatterns, o.indexPatterns));
    if (older.length > 0) {
      warnings.push(
        `index template [${name}] has index patterns [${t.indexPatterns.join(', ')}] matching patterns from existing older templates [${older.map(([n]) => n).join(',')}] with patterns (${older.map(([n, o]) => `${n} => [${o.indexPatterns.join(', ')}]`).join(',')}); this template [${name}] will take precedence during new index creation`,
      );
    }
    this.composable.set(name, t);
    this.save();
    return warnings;
  }

  getComposable(expression: string | undefined): [string, ComposableTemplate][] {
    const found = select(this.composable, expression);
    if (found.length === 0 && expression !== undefined && !expression.includes('*')) {
      throw resourceNotFound(`index template matching [${expression}] not found`);
    }
    return found;
  }

  deleteComposable(expression: string): void {
    const wanted = names(expression);
    const doomed = new Set<string>();
    for (const w of wanted) {
      const hits = [...this.composable.keys()].filter((n) => simpleMatch(w, n));
      if (hits.length === 0 && !w.includes('*')) {
        throw new ShoalError('index_template_missing_exception', `index_template [${w}] missing`, 404);
      }
      for (const h of hits) doomed.add(h);
    }
    for (const n of doomed) this.composable.delete(n);
    this.save();
  }

  // ---------------------------------------------------------------- component templates

  putComponent(name: string, t: ComponentTemplate, create: boolean): void {
    if (create && this.components.has(name))
      throw illegalArgument(`component template [${name}] already exists`);
    this.validateComposed(`component template [${name}]`, {
      settings: t.template.settings ?? {},
      mappings: t.template.mappings ?? {},
      aliases: t.template.aliases ?? {},
    });
    // Every template composed of it must still make a valid index with the new version.
    const next = new Map(this.components).set(name, t);
    for (const [tn, ct] of this.composable) {
      if (ct.composedOf.includes(name)) {
        this.validateComposed(
          `composable template [${tn}] template after composition with component templates [${ct.composedOf.join(', ')}]`,
          this.composeFrom(ct, next),
        );
      }
    }
    this.components.set(name, t);
    this.save();
  }

  getComponent(expression: string | undefined): [string, ComponentTemplate][] {
    const found = select(this.components, expression);
    if (found.length === 0 && expression !== undefined && !expression.includes('*')) {
      throw resourceNotFound(`component template matching [${expression}] not found`);
    }
    return found;
  }

  deleteComponent(expression: string): void {
    const doomed = new Set<string>();
    for (const w of names(expression)) {
      const hits = [...this.components.keys()].filter((n) => simpleMatch(w, n));
      if (hits.length === 0 && !w.includes('*')) throw resourceNotFound(`component_template [${w}] missing`);
      for (const h of hits) doomed.add(h);
    }
    const users = [...this.composable].filter(([, t]) => t.composedOf.some((c) => doomed.has(c)));
    if (users.length > 0) {
      const used = [...doomed].filter((c) => users.some(([, t]) => t.composedOf.includes(c)));
      throw illegalArgument(
        `component templates [${used.join(', ')}] cannot be removed as they are still in use by index templates [${users.map(([n]) => n).join(', ')}]`,
      );
    }
    for (const n of doomed) this.components.delete(n);
    this.save();
  }

  // ---------------------------------------------------------------- legacy templates

  putLegacy(name: string, t: LegacyTemplate, create: boolean): string[] {
    if (create && this.legacy.has(name)) throw illegalArgument(`index_template [${name}] already exists`);
    this.validateComposed(`index template [${name}]`, {
      settings: t.settings,
      mappings: t.mappings,
      aliases: t.aliases,
    });
    const warnings = ['Legacy index templates are deprecated in favor of composable templates.'];
    const newer = [...this.composable].filter(([, o]) => overlapping(t.indexPatterns, o.indexPatterns));
    if (newer.length > 0) {
      warnings.push(
        `legacy template [${name}] has index patterns [${t.indexPatterns.join(', ')}] matching patterns from existing composable templates [${newer.map(([n]) => n).join(',')}] with patterns (${newer.map(([n, o]) => `${n} => [${o.indexPatterns.join(', ')}]`).join(',')}); this template [${name}] may be ignored in favor of a composable template at index creation time`,
      );
    }
    this.legacy.set(name, t);
    this.save();
    return warnings;
  }

  getLegacy(expression: string | undefined): [string, LegacyTemplate][] {
    return select(this.legacy, expression);
  }

  deleteLegacy(expression: string): void {
    const doomed = new Set<string>();
    for (const w of names(expression)) {
      const hits = [...this.legacy.keys()].filter((n) => simpleMatch(w, n));
      if (hits.length === 0 && !w.includes('*')) {
        throw new ShoalError('index_template_missing_exception', `index_template [${w}] missing`, 404);
      }
      for (const h of hits) doomed.add(h);
    }
    for (const n of doomed) this.legacy.delete(n);
    this.save();
  }

  // ---------------------------------------------------------------- composing

  /** The composable template an index of this name gets, with its name (hidden indices skip `*`). */
  findComposable(index: string, hidden = false): [string, ComposableTemplate] | undefined {
    let best: [string, ComposableTemplate] | undefined;
    for (const [n, t] of this.composable) {
      const patterns = hidden ? t.indexPatterns.filter((p) => p !== '*') : t.indexPatterns;
      if (!matchesAny(patterns, index)) continue;
      if (!best || (t.priority ?? 0) > (best[1].priority ?? 0)) best = [n, t];
    }
    return best;
  }

  /** The composable templates matching a name, by priority, and the legacy ones (`_simulate_index`). */
  matching(index: string): {
    composable: [string, ComposableTemplate][];
    legacy: [string, LegacyTemplate][];
  } {
    return {
      composable: [...this.composable]
        .filter(([, t]) => matchesAny(t.indexPatterns, index))
        .sort((a, b) => (b[1].priority ?? 0) - (a[1].priority ?? 0)),
      legacy: [...this.legacy]
        .filter(([, t]) => matchesAny(t.indexPatterns, index))
        .sort((a, b) => a[1].order - b[1].order),
    };
  }

  /** What a composable template gives an index: its components in order, then its own parts. */
  composeFrom(
    t: ComposableTemplate,
    components: ReadonlyMap<string, ComponentTemplate> = this.components,
  ): ComposedIndex {
    const out: ComposedIndex = { settings: {}, mappings: {}, aliases: {} };
    const parts = [...t.composedOf.flatMap((c) => components.get(c)?.template ?? []), t.template ?? {}];
    for (const p of parts) {
      Object.assign(out.settings, p.settings ?? {});
      out.mappings = mergeMappings(out.mappings, p.mappings ?? {});
      Object.assign(out.aliases, p.aliases ?? {});
    }
    return out;
  }

  /** What the matching legacy templates give an index, the higher `order` winning. */
  composeLegacy(index: string): ComposedIndex | undefined {
    const matches = this.matching(index).legacy;
    if (matches.length === 0) return undefined;
    const out: ComposedIndex = { settings: {}, mappings: {}, aliases: {} };
    for (const [, t] of matches) {
      Object.assign(out.settings, t.settings);
      out.mappings = mergeMappings(out.mappings, t.mappings);
      Object.assign(out.aliases, t.aliases);
    }
    return out;
  }

  /** The parts an index of this name gets from the templates, before the request's own. */
  forIndex(
    index: string,
    hidden: boolean,
  ): { composed?: ComposedIndex; template?: [string, ComposableTemplate] } {
    const template = this.findComposable(index, hidden);
    if (template) return { composed: this.composeFrom(template[1]), template };
    const legacy = this.composeLegacy(index);
    return legacy ? { composed: legacy } : {};
  }

  /** Builds what the template would make of an index; `what` says which template, as Elasticsearch does. */
  private validateComposed(what: string, c: ComposedIndex): void {
    try {
      validateSettings(c.settings, 'index');
      createIndexMapping(c.mappings, { indexName: 'validate-template' });
    } catch (e) {
      if (e instanceof ShoalError && e.status < 500) {
        throw new ShoalError('illegal_argument_exception', `${what} is invalid`, 400, {}, e);
      }
      throw e;
    }
  }
}

/**
 * A create-index body with the templates' parts under it: the request's settings, mappings and
 * aliases win over the templates'. An index matching a data stream template is refused, as
 * Elasticsearch refuses it.
 */
export function withTemplates(
  templates: IndexTemplates,
  name: string,
  body: { settings?: unknown; mappings?: unknown; aliases?: unknown } | undefined,
  autoCreate: boolean,
): { settings?: unknown; mappings?: unknown; aliases?: unknown } | undefined {
  const given = body?.settings === undefined ? {} : normalizeSettings(body.settings, 'index');
  const hidden = given['index.hidden'] === 'true';
  const { composed, template } = templates.forIndex(name, hidden);
  // A first write to such a name creates a data stream (write-path.ts) before it gets here.
  if (template?.[1].dataStream && !autoCreate) {
    throw illegalArgument(
      `cannot create index with name [${name}], because it matches with template [${template[0]}] that creates data streams only, use create data stream api instead`,
    );
  }
  if (!composed) return body;
  return {
    ...body,
    settings: { ...composed.settings, ...given },
    mappings: mergeMappings(composed.mappings, (body?.mappings as Record<string, unknown>) ?? {}),
    aliases: { ...composed.aliases, ...((body?.aliases as Record<string, unknown>) ?? {}) },
  };
}
