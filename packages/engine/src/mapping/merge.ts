/**
 * Merging a mapping update into the current mapping, with Elasticsearch 8's rules and texts:
 * a field keeps its type, non-updatable parameters keep their value (all conflicts of a field
 * are listed), updatable ones take the update's value, multi-fields are added or merged,
 * `copy_to` is replaced; objects keep their kind and `enabled`, nested objects their
 * `include_in_parent`/`include_in_root`. Shoal answers the latter with 400
 * illegal_argument_exception instead of ES's 500 mapper_exception (changes78.md §4.3).
 */
import { illegalArgument } from '@shoal/protocol';
import { javaToString } from './java-text.ts';
import type { FieldNode, MapperNode, ObjectNode, RootNode, SourceConfig } from './nodes.ts';
import { sameValue } from './params.ts';
import { PARAMS } from './type-params.ts';

function conflictText(v: unknown): string {
  return javaToString(v);
}

export function mergeField(a: FieldNode, b: FieldNode): FieldNode {
  if (a.type !== b.type)
    throw illegalArgument(`mapper [${a.path}] cannot be changed from type [${a.type}] to [${b.type}]`);
  const conflicts: string[] = [];
  for (const spec of PARAMS[a.type]) {
    const prev = a.params[spec.name] ?? spec.defaultValue(a.params);
    const next = b.params[spec.name] ?? spec.defaultValue(b.params);
    const ok =
      spec.updatable === true
        ? true
        : spec.updatable === false
          ? sameValue(prev, next)
          : spec.updatable(prev, next);
    if (!ok) {
      const text = spec.conflictText ?? conflictText;
      conflicts.push(`Cannot update parameter [${spec.name}] from [${text(prev)}] to [${text(next)}]`);
    }
  }
  // Multi-fields merge before the parameter conflicts are reported, as in FieldMapper.merge.
  let fields = a.fields;
  if (b.fields.size > 0) {
    const merged = new Map(a.fields);
    for (const [name, sub] of b.fields) {
      const existing = merged.get(name);
      merged.set(name, existing ? mergeField(existing, sub) : sub);
    }
    fields = merged;
  }
  if (conflicts.length > 0) {
    throw illegalArgument(
      `Mapper for [${a.path}] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`,
    );
  }
  return { ...b, fields };
}

function objectName(o: ObjectNode): string {
  return o.path === '' ? o.name : o.path;
}

export function mergeObject(a: ObjectNode, b: ObjectNode): ObjectNode {
  if (a.kind === 'object' && b.kind === 'nested') {
    throw illegalArgument(`can't merge a nested mapping [${objectName(b)}] with a non-nested mapping`);
  }
  if (a.kind === 'nested' && b.kind !== 'nested') {
    throw illegalArgument(`can't merge a non-nested mapping [${objectName(b)}] with a nested mapping`);
  }
  if (b.enabled !== undefined && (a.enabled ?? true) !== b.enabled) {
    throw illegalArgument(
      `the [enabled] parameter can't be updated for the object mapping [${objectName(a)}]`,
    );
  }
  if (a.kind === 'nested') {
    if ((a.includeInParent ?? false) !== (b.includeInParent ?? false)) {
      throw illegalArgument("the [include_in_parent] parameter can't be updated on a nested object mapping");
    }
    if ((a.includeInRoot ?? false) !== (b.includeInRoot ?? false)) {
      throw illegalArgument("the [include_in_root] parameter can't be updated on a nested object mapping");
    }
  }
  let children = a.children;
  if (b.children.size > 0) {
    const merged = new Map(a.children);
    for (const [name, child] of b.children) {
      const existing = merged.get(name);
      merged.set(name, existing ? mergeNodes(existing, child) : child);
    }
    children = merged;
  }
  return {
    ...a,
    dynamic: b.dynamic ?? a.dynamic,
    enabled: b.enabled ?? a.enabled,
    includeInParent: b.includeInParent ?? a.includeInParent,
    includeInRoot: b.includeInRoot ?? a.includeInRoot,
    children,
  };
}

export function mergeNodes(a: MapperNode, b: MapperNode): MapperNode {
  if (a.kind === 'field') {
    if (b.kind !== 'field') {
      throw illegalArgument(
        b.kind === 'nested'
          ? `can't merge a non-nested mapping [${b.path}] with a nested mapping`
          : `can't merge a non object mapping [${b.path}] with an object mapping`,
      );
    }
    return mergeField(a, b);
  }
  if (b.kind === 'field') {
    if (a.kind === 'nested')
      throw illegalArgument(`can't merge a non-nested mapping [${b.path}] with a nested mapping`);
    throw illegalArgument(`can't merge a non object mapping [${b.path}] with an object mapping`);
  }
  return mergeObject(a, b);
}

function mergeSource(a: SourceConfig | undefined, b: SourceConfig): SourceConfig {
  const prev = a ?? {};
  const conflicts: string[] = [];
  const check = (name: string, x: unknown, y: unknown) => {
    if (!sameValue(x, y))
      conflicts.push(`Cannot update parameter [${name}] from [${javaToString(x)}] to [${javaToString(y)}]`);
  };
  check('enabled', prev.enabled ?? true, b.enabled ?? true);
  check('mode', prev.mode ?? null, b.mode ?? null);
  check('includes', prev.includes ?? [], b.includes ?? []);
  check('excludes', prev.excludes ?? [], b.excludes ?? []);
  if (conflicts.length > 0) {
    throw illegalArgument(
      `Mapper for [_source] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`,
    );
  }
  return b;
}

export function mergeRoot(a: RootNode, b: RootNode): RootNode {
  const object = mergeObject(a.object, b.object);
  let routingRequired = a.routingRequired;
  if (b.routingRequired !== undefined) {
    if ((a.routingRequired ?? false) !== b.routingRequired) {
      throw illegalArgument(
        `Mapper for [_routing] conflicts with existing mapper:\n\tCannot update parameter [required] from [${a.routingRequired ?? false}] to [${b.routingRequired}]`,
      );
    }
    routingRequired = b.routingRequired;
  }
  return {
    object,
    dateDetection: b.dateDetection ?? a.dateDetection,
    numericDetection: b.numericDetection ?? a.numericDetection,
    dynamicDateFormats: b.dynamicDateFormats ?? a.dynamicDateFormats,
    dynamicTemplates: b.dynamicTemplates ?? a.dynamicTemplates,
    source: b.source ? mergeSource(a.source, b.source) : a.source,
    routingRequired,
    meta: b.meta ?? a.meta,
    ...mergeRuntime(a.runtime, b.runtime),
  };
}

/** Runtime fields are replaced whole by a new definition, and removed by `null`. */
function mergeRuntime(a: RootNode['runtime'], b: RootNode['runtime']): Pick<RootNode, 'runtime'> {
  if (!b) return a ? { runtime: a } : {};
  const out: Record<string, NonNullable<RootNode['runtime']>[string]> = { ...a };
  for (const [name, def] of Object.entries(b)) {
    if (def === null) delete out[name];
    else out[name] = def;
  }
  return Object.keys(out).length > 0 ? { runtime: out } : {};
}
