/**
 * `action.auto_create_index`: `true`, `false`, or a comma list of patterns where the first
 * match decides (`+logs-*,-tmp-*`); a name no pattern matches is not created.
 */
import { ShoalError } from '@shoal/protocol';

function notFound(index: string, why: string): ShoalError {
  return new ShoalError('index_not_found_exception', `no such index [${index}] and ${why}`, 404, {
    'resource.type': 'index_expression',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });
}

function matches(pattern: string, name: string): boolean {
  const src = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${src}$`).test(name);
}

/** Throws Elasticsearch's index_not_found_exception when the setting forbids creating `index`. */
export function checkAutoCreate(setting: string | undefined, index: string): void {
  const value = (setting ?? 'true').trim();
  if (value === 'true' || value === '') return;
  if (value === 'false') throw notFound(index, '[action.auto_create_index] is [false]');
  for (const raw of value.split(',').map((s) => s.trim())) {
    const allow = !raw.startsWith('-');
    const pattern = raw.startsWith('+') || raw.startsWith('-') ? raw.slice(1) : raw;
    if (matches(pattern, index)) {
      if (allow) return;
      throw notFound(
        index,
        `[action.auto_create_index] contains [${raw}] which forbids automatic creation of the index`,
      );
    }
  }
  throw notFound(index, `[action.auto_create_index] ([${value}]) doesn't match`);
}
