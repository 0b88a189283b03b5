import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseAliasActions } from './alias-actions.ts';

function chain(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (!isShoalError(e)) throw e;
    const out: string[] = [];
    for (let c: ShoalError | undefined = e; c; c = c.causedBy) out.push(`${c.type}: ${c.reason}`);
    return out;
  }
  throw new Error('expected an error');
}

describe('parseAliasActions', () => {
  it('reads add, remove and remove_index actions', () => {
    expect(
      parseAliasActions({
        actions: [
          { add: { index: 't1', alias: 'a', is_write_index: true, indexRouting: '1' } },
          { remove: { indices: ['t1'], aliases: ['b'], must_exist: false } },
          { remove_index: { index: 't2' } },
        ],
      }),
    ).toEqual([
      { kind: 'add', indices: ['t1'], aliases: ['a'], spec: { is_write_index: true, index_routing: '1' } },
      { kind: 'remove', indices: ['t1'], aliases: ['b'], spec: {}, mustExist: false },
      { kind: 'remove_index', indices: ['t2'], aliases: [], spec: {} },
    ]);
  });

  it('refuses an unknown key inside an action, wrapped by each enclosing parser', () => {
    expect(
      chain(() => parseAliasActions({ actions: [{ add: { index: 't1', alias: 'x', foo: 1 } }] })),
    ).toEqual([
      'x_content_parse_exception: [1:52] [aliases] failed to parse field [actions]',
      'x_content_parse_exception: [1:52] [alias_action] failed to parse field [add]',
      'x_content_parse_exception: [1:46] [add] unknown field [foo]',
    ]);
    expect(
      chain(() =>
        parseAliasActions({ actions: [{ remove: { index: 't1', alias: 'x', is_write_index: true } }] }),
      ),
    ).toEqual([
      'x_content_parse_exception: [1:66] [aliases] failed to parse field [actions]',
      'x_content_parse_exception: [1:66] [alias_action] failed to parse field [remove]',
      'x_content_parse_exception: [1:49] [remove] unknown field [is_write_index]',
    ]);
  });

  it('refuses an unknown action and an unknown top-level key', () => {
    expect(chain(() => parseAliasActions({ actions: [{ rename: {} }] }))).toEqual([
      'x_content_parse_exception: [1:23] [aliases] failed to parse field [actions]',
      'x_content_parse_exception: [1:14] [alias_action] unknown field [rename]',
    ]);
    expect(chain(() => parseAliasActions({ action: [] }))).toEqual([
      'x_content_parse_exception: [1:2] [aliases] unknown field [action] did you mean [actions]?',
    ]);
  });
});
