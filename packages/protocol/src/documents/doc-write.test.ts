import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { checkIfPrimaryTerm, checkIfSeqNo, docWriteValidation, parseActiveShardCount } from './doc-write.ts';

const INTERNAL =
  'internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, cause: e.causedBy?.reason };
    throw e;
  }
  throw new Error('expected an error');
}

describe('docWriteValidation', () => {
  it('accepts plain writes and external versions', () => {
    expect(docWriteValidation({ op: 'index', id: '1' })).toEqual([]);
    expect(docWriteValidation({ op: 'index', id: '1', version: 5, versionType: 'external' })).toEqual([]);
    expect(docWriteValidation({ op: 'delete', id: '1', version: 0, versionType: 'external_gte' })).toEqual(
      [],
    );
    expect(docWriteValidation({ op: 'index', id: '1', ifSeqNo: 0, ifPrimaryTerm: 1 })).toEqual([]);
    expect(docWriteValidation({ op: 'create', id: '1' })).toEqual([]);
    expect(docWriteValidation({ op: 'update', id: '1', hasDoc: true })).toEqual([]);
  });

  it('refuses internal versioning on index, delete', () => {
    expect(docWriteValidation({ op: 'index', id: '1', version: 1 })).toEqual([INTERNAL]);
    expect(docWriteValidation({ op: 'delete', id: '1', version: 1 })).toEqual([INTERNAL]);
    expect(docWriteValidation({ op: 'delete', id: '1', version: 0 })).toEqual([
      'illegal version value [0] for version type [INTERNAL]',
      INTERNAL,
    ]);
  });

  it('needs if_seq_no and if_primary_term together', () => {
    expect(docWriteValidation({ op: 'index', id: '1', ifSeqNo: 3 })).toEqual([
      'ifSeqNo is set, but primary term is [0]',
    ]);
    expect(docWriteValidation({ op: 'delete', id: '1', ifPrimaryTerm: 1 })).toEqual([
      'ifSeqNo is unassigned, but primary term is [1]',
    ]);
    expect(
      docWriteValidation({
        op: 'index',
        id: '1',
        ifSeqNo: 1,
        ifPrimaryTerm: 1,
        version: 2,
        versionType: 'external',
      }),
    ).toEqual(['compare and write operations can not use versioning']);
  });

  it('needs a version for external versioning', () => {
    expect(docWriteValidation({ op: 'index', id: '1', versionType: 'external' })).toEqual([
      'illegal version value [-3] for version type [EXTERNAL]',
    ]);
    expect(docWriteValidation({ op: 'index', versionType: 'external_gte', version: 2 })).toEqual([
      'an id must be provided if version type or value are set',
    ]);
  });

  it('refuses versioning and compare-and-set on create', () => {
    expect(docWriteValidation({ op: 'create', id: '1', version: 3 })).toEqual([
      'create operations do not support explicit versions. use index instead',
    ]);
    expect(docWriteValidation({ op: 'create', id: '1', version: 3, versionType: 'external' })).toEqual([
      'create operations only support internal versioning. use index instead',
    ]);
    expect(docWriteValidation({ op: 'create', id: '1', ifSeqNo: 1, ifPrimaryTerm: 1 })).toEqual([
      'create operations do not support compare and set. use index instead',
    ]);
  });

  it('limits ids to 512 UTF-8 bytes', () => {
    expect(docWriteValidation({ op: 'index', id: 'x'.repeat(512) })).toEqual([]);
    const long = `${'x'.repeat(511)}é`;
    expect(docWriteValidation({ op: 'index', id: long })).toEqual([
      `id [${long}] is too long, must be no longer than 512 bytes but was: 513`,
    ]);
    // DeleteRequest.validate does not check the length.
    expect(docWriteValidation({ op: 'delete', id: long })).toEqual([]);
  });

  it('checks update bodies as UpdateRequest.validate does', () => {
    expect(docWriteValidation({ op: 'update', id: '1', hasUpsert: true })).toEqual([
      'script or doc is missing',
    ]);
    expect(docWriteValidation({ op: 'update', id: '1', docAsUpsert: true })).toEqual([
      'script or doc is missing',
      'doc must be specified if doc_as_upsert is enabled',
    ]);
    expect(
      docWriteValidation({
        op: 'update',
        id: '1',
        hasDoc: true,
        docAsUpsert: true,
        ifSeqNo: 1,
        ifPrimaryTerm: 1,
      }),
    ).toEqual(['compare and write operations can not be used with upsert']);
    expect(docWriteValidation({ op: 'update', hasDoc: true })).toEqual(['id is missing']);
  });
});

describe('request setters', () => {
  it('refuses negative sequence numbers and primary terms', () => {
    expect(err(() => checkIfSeqNo(-1))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'sequence numbers must be non negative. got [-1].',
      cause: undefined,
    });
    expect(checkIfSeqNo(-2)).toBeUndefined();
    expect(checkIfSeqNo(0)).toBe(0);
    expect(err(() => checkIfPrimaryTerm(-1)).reason).toBe('primary term must be non negative. got [-1]');
    expect(checkIfPrimaryTerm(0)).toBeUndefined();
  });

  it('parses wait_for_active_shards as ActiveShardCount.parseString', () => {
    expect(parseActiveShardCount(undefined)).toBeUndefined();
    expect(parseActiveShardCount('all')).toBe('all');
    expect(parseActiveShardCount('2')).toBe(2);
    expect(err(() => parseActiveShardCount('abc'))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'cannot parse ActiveShardCount[abc]',
      cause: 'For input string: "abc"',
    });
    expect(err(() => parseActiveShardCount('-2')).reason).toBe('shard count cannot be a negative value');
  });
});
