import { isShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { parseBulkBody } from './bulk-lines.ts';

const body = (...lines: unknown[]) => Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason };
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseBulkBody', () => {
  it('reads index, create, update and delete actions', () => {
    const items = parseBulkBody(
      body(
        { index: { _index: 't', _id: '1', version: 3, version_type: 'external' } },
        { a: 1 },
        { index: { _id: '2', op_type: 'create', pipeline: null } },
        { a: 2 },
        { update: { _id: '1', if_seq_no: 0, if_primary_term: 1, retry_on_conflict: 2 } },
        { doc: { a: 3 } },
        { delete: { _id: '2' } },
      ),
      { index: 'd' },
    );
    expect(items.map((i) => [i.action, i.target, i.id])).toEqual([
      ['index', 't', '1'],
      ['create', 'd', '2'],
      ['update', 'd', '1'],
      ['delete', 'd', '2'],
    ]);
  });

  it('refuses unknown metadata keys, _type included', () => {
    expect(err(() => parseBulkBody(body({ index: { _index: 't', bar: 1 } }, {}), {}))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Action/metadata line [1] contains an unknown parameter [bar]',
    });
    expect(
      err(() =>
        parseBulkBody(body({ delete: { _index: 't', _id: '1' } }, { index: { _type: '_doc' } }, {}), {}),
      ).reason,
    ).toBe('Action/metadata line [2] contains an unknown parameter [_type]');
    expect(err(() => parseBulkBody(body({ index: { _index: ['t'] } }, {}), {})).reason).toBe(
      'Malformed action/metadata line [1], expected a simple value for field [_index] but found [START_ARRAY]',
    );
  });

  it('gathers every item validation failure into one error', () => {
    expect(
      err(() =>
        parseBulkBody(
          body(
            { index: { _index: 't', _id: '1', version: 1 } },
            {},
            { delete: { _index: 't', _id: '1', if_seq_no: 1 } },
            { index: { _id: 'x'.repeat(513) } },
            {},
          ),
          {},
        ),
      ),
    ).toEqual({
      type: 'action_request_validation_exception',
      reason:
        'Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;' +
        '2: ifSeqNo is set, but primary term is [0];3: index is missing;' +
        `4: id [${'x'.repeat(513)}] is too long, must be no longer than 512 bytes but was: 513;`,
    });
  });

  it('refuses versioned updates, negative sequence numbers and unknown update fields', () => {
    expect(
      err(() => parseBulkBody(body({ update: { _index: 't', _id: '1', version: 2 } }, { doc: {} }), {}))
        .reason,
    ).toBe('Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead');
    expect(err(() => parseBulkBody(body({ delete: { _index: 't', _id: '1', if_seq_no: -1 } }), {}))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'sequence numbers must be non negative. got [-1].',
    });
    expect(
      err(() => parseBulkBody(body({ update: { _index: 't', _id: '1' } }, { doc: {}, foo: 1 }), {})),
    ).toEqual({
      type: 'x_content_parse_exception',
      reason: '[1:11] [UpdateRequest] unknown field [foo]',
    });
  });
});

describe('parseBulkBody: a last action without its source line', () => {
  const raw = (text: string) => Buffer.from(text);

  it('drops a final index, create or update action, as BulkRequestParser does', () => {
    for (const action of ['index', 'create', 'update']) {
      const items = parseBulkBody(raw(`{"index":{"_id":"1"}}\n{"a":1}\n{"${action}":{"_id":"2"}}\n`), {
        index: 'd',
      });
      expect(items.map((i) => [i.action, i.id])).toEqual([['index', '1']]);
    }
  });

  it('keeps a final delete, which has no source line', () => {
    const items = parseBulkBody(raw('{"index":{"_id":"1"}}\n{"a":1}\n{"delete":{"_id":"1"}}\n'), {
      index: 'd',
    });
    expect(items.map((i) => i.action)).toEqual(['index', 'delete']);
  });

  it('has no requests when the dropped action was the only one', () => {
    expect(err(() => parseBulkBody(raw('{"index":{"_id":"1"}}\n'), { index: 'd' }))).toEqual({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: no requests added;',
    });
  });

  it('still refuses bytes after the last newline', () => {
    expect(err(() => parseBulkBody(raw('{"index":{"_id":"1"}}\n{"a":1}'), { index: 'd' }))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'The bulk request must be terminated by a newline [\\n]',
    });
  });
});
