import { describe, expect, it } from 'vitest';
import { aliasActionTargets, bulkTargets, mgetTargets } from './composite-targets.ts';

describe('bulkTargets', () => {
  it('reads each action line, skips sources, and uses the path index by default', () => {
    const body = Buffer.from(
      [
        '{"index":{"_index":"a","_id":"1"}}',
        '{"f":"{\\"delete\\":{}}"}',
        '{"create":{"_id":"2"}}',
        '{"f":1}',
        '{"delete":{"_index":"c","_id":"3"}}',
        '{"update":{"_index":"d","_id":"4"}}',
        '{"doc":{"f":2}}',
        '',
      ].join('\n'),
    );
    expect(bulkTargets(body, 'b')).toEqual([
      { action: 'indices:data/write/index:op_type/index', index: 'a', mayCreate: true, position: 0 },
      { action: 'indices:data/write/index:op_type/create', index: 'b', mayCreate: true, position: 1 },
      { action: 'indices:data/write/delete', index: 'c', mayCreate: false, position: 2 },
      { action: 'indices:data/write/update', index: 'd', mayCreate: true, position: 3 },
    ]);
  });
});

describe('mgetTargets and aliasActionTargets', () => {
  it('names each document and each alias action', () => {
    expect(mgetTargets({ docs: [{ _index: 'a', _id: '1' }, { _id: '2' }] }, 'b').map((t) => t.index)).toEqual(
      ['a', 'b'],
    );
    expect(
      aliasActionTargets({
        actions: [{ add: { index: 'i', alias: 'al' } }, { remove_index: { index: 'old' } }],
      }),
    ).toEqual([
      { action: 'indices:admin/aliases', index: 'i', mayCreate: false },
      { action: 'indices:admin/aliases', index: 'al', mayCreate: false },
      { action: 'indices:admin/delete', index: 'old', mayCreate: false },
    ]);
  });
});
