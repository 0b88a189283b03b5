import { invalidIndexName } from '@shoal/protocol';

/** Elasticsearch prints its forbidden-character set in this order (a Java HashSet's). */
const FORBIDDEN = [' ', '"', '*', '\\', '<', '|', ',', '>', '/', '?'];

/** Elasticsearch's rules for a new index or alias name (MetadataCreateIndexService). */
export function validateIndexName(name: string): void {
  if (FORBIDDEN.some((ch) => name.includes(ch))) {
    throw invalidIndexName(name, `must not contain the following characters [${FORBIDDEN.join(', ')}]`);
  }
  if (name.includes('#')) throw invalidIndexName(name, "must not contain '#'");
  if (name.includes(':')) throw invalidIndexName(name, "must not contain ':'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    throw invalidIndexName(name, "must not start with '_', '-', or '+'");
  }
  if (name !== name.toLowerCase()) throw invalidIndexName(name, 'must be lowercase');
  if (name === '.' || name === '..') throw invalidIndexName(name, "must not be '.' or '..'");
  const bytes = Buffer.byteLength(name);
  if (bytes > 255) throw invalidIndexName(name, `index name is too long, (${bytes} > 255)`);
}
