/**
 * Index name rules of MetadataCreateIndexService.validateIndexOrAliasName and validateIndexName
 * (8.x), in Elasticsearch's order; each failure is a 400 invalid_index_name_exception.
 */
import { invalidIndexName } from '../errors/catalogue.ts';

const INVALID_FILENAME_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];
/** Strings.INVALID_FILENAME_CHARS as Elasticsearch 8 prints it: `['\','/','*','?','"','<','>','|',' ',',']`. */
const INVALID_FILENAME_CHARS_TEXT = `[${INVALID_FILENAME_CHARS.map((c) => `'${c}'`).join(',')}]`;
const MAX_INDEX_NAME_BYTES = 255;

/** The reason a name is not a valid index name, or undefined when it is. */
export function invalidIndexNameReason(name: string): string | undefined {
  if (INVALID_FILENAME_CHARS.some((c) => name.includes(c))) {
    return `must not contain the following characters ${INVALID_FILENAME_CHARS_TEXT}`;
  }
  if (name.length === 0) return 'must not be empty';
  if (name.includes('#')) return "must not contain '#'";
  if (name.includes(':')) return "must not contain ':'";
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    return "must not start with '_', '-', or '+'";
  }
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_INDEX_NAME_BYTES) return `index name is too long, (${bytes} > ${MAX_INDEX_NAME_BYTES})`;
  if (name === '.' || name === '..') return "must not be '.' or '..'";
  if (name.toLowerCase() !== name) return 'must be lowercase';
  return undefined;
}

/** Throws 400 invalid_index_name_exception `Invalid index name [<name>], <reason>` for a bad name. */
export function validateIndexName(name: string): void {
  const reason = invalidIndexNameReason(name);
  if (reason !== undefined) throw invalidIndexName(name, reason);
}
