import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseUpdateBody } from './update-body.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, cause: e.causedBy?.reason };
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseUpdateBody', () => {
  it('reads the known fields', () => {
    expect(
      parseUpdateBody({
        doc: { a: 1 },
        upsert: { a: 0 },
        doc_as_upsert: true,
        detect_noop: false,
        _source: true,
      }),
    ).toEqual({ doc: { a: 1 }, upsert: { a: 0 }, docAsUpsert: true, detectNoop: false, source: true });
    expect(parseUpdateBody({ doc: {}, if_seq_no: 3, if_primary_term: '1' })).toEqual({
      doc: {},
      ifSeqNo: 3,
      ifPrimaryTerm: 1,
    });
  });

  it('positions an unknown field on its name', () => {
    expect(err(() => parseUpdateBody({ doc: { a: 5 }, doc_as_upsert: true, foo: 1 }))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:37] [UpdateRequest] unknown field [foo]',
      cause: undefined,
    });
    expect(err(() => parseUpdateBody({ docs: {} })).reason).toBe(
      '[1:2] [UpdateRequest] unknown field [docs] did you mean [doc]?',
    );
  });

  it('refuses values of the wrong type', () => {
    expect(err(() => parseUpdateBody({ doc: 5 })).reason).toBe(
      "[1:8] [UpdateRequest] doc doesn't support values of type: VALUE_NUMBER",
    );
    expect(err(() => parseUpdateBody({ doc: {}, if_seq_no: -1 }))).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:23] [UpdateRequest] failed to parse field [if_seq_no]',
      cause: 'sequence numbers must be non negative. got [-1].',
    });
  });
});
