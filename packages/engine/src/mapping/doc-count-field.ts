/**
 * The `_doc_count` metadata field (DocCountFieldMapper): a pre-aggregated document says how many
 * documents it stands for, and bucket aggregations count it that many times. It is a positive
 * integer at the root of the document, kept as the doc values of `_doc_count` and never added to
 * the mapping.
 */
import { illegalArgument, parsingException } from '@shoal/protocol';
import type { IndexableField } from '../contract.ts';
import { documentParsingAt } from './errors.ts';
import { javaToString } from './java-text.ts';

export const DOC_COUNT_FIELD = '_doc_count';

/** The indexable field of a `_doc_count` value; `where` locates it for the error. */
export function docCountField(value: unknown, id: string, where: string | null): IndexableField {
  const fail = (cause: ReturnType<typeof illegalArgument>) =>
    documentParsingAt(
      where,
      `failed to parse field [${DOC_COUNT_FIELD}] of type [${DOC_COUNT_FIELD}] in document with id '${id}'. ` +
        `Preview of field's value: '${javaToString(value)}'`,
      cause,
    );
  if (typeof value !== 'number' && typeof value !== 'bigint') {
    const token = Array.isArray(value)
      ? 'START_ARRAY'
      : value === null
        ? 'VALUE_NULL'
        : typeof value === 'object'
          ? 'START_OBJECT'
          : typeof value === 'boolean'
            ? 'VALUE_BOOLEAN'
            : 'VALUE_STRING';
    throw fail(
      parsingException(`Failed to parse object: expecting token of type [VALUE_NUMBER] but found [${token}]`),
    );
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw fail(
      illegalArgument(
        `Field [${DOC_COUNT_FIELD}] must be a positive integer. Value [${javaToString(value)}] is not allowed.`,
      ),
    );
  }
  return { path: DOC_COUNT_FIELD, type: 'long', numbers: [n] };
}
