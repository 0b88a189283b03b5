/**
 * The body of `POST /_aliases`, read as IndicesAliasesRequest.PARSER reads it: an ObjectParser
 * named `aliases` whose `actions` array holds `alias_action` entries, each one of the `add`,
 * `remove` and `remove_index` ObjectParsers. Unknown keys fail at their position, wrapped by
 * each enclosing parser (`[aliases] failed to parse field [actions]` caused by
 * `[alias_action] failed to parse field [add]` caused by `[add] unknown field [foo]`).
 */
import { actionRequestValidation, illegalArgument } from '../errors/catalogue.ts';
import { xContentParseError } from '../query/local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  newCtx,
  type ParseCtx,
  parseField,
  type Token,
  tokenOf,
  unknownField,
  VT,
} from '../query/parse-context.ts';
import { booleanValue, scalarText } from '../query/xcontent-values.ts';

export type AliasActionKind = 'add' | 'remove' | 'remove_index';

export interface AliasActionSpec {
  kind: AliasActionKind;
  indices: string[];
  aliases: string[];
  /** `add`: filter, routing, index_routing, search_routing, is_write_index, is_hidden. */
  spec: Record<string, unknown>;
  mustExist?: boolean;
}

const KINDS: readonly AliasActionKind[] = ['add', 'remove', 'remove_index'];
const COMMON = ['index', 'indices', 'alias', 'aliases'];
const FIELDS: Record<AliasActionKind, readonly string[]> = {
  add: [...COMMON, 'filter', 'routing', 'index_routing', 'search_routing', 'is_write_index', 'is_hidden'],
  remove: [...COMMON, 'must_exist'],
  remove_index: COMMON,
};
/** The deprecated spellings ParseField still accepts for the routing fields. */
const ROUTING_NAMES: Record<string, string> = {
  indexRouting: 'index_routing',
  'index-routing': 'index_routing',
  searchRouting: 'search_routing',
  'search-routing': 'search_routing',
};
/** ValueType.OBJECT_ARRAY: one object or an array of them. */
const OBJECT_ARRAY = new Set<Token>(['START_OBJECT', 'START_ARRAY']);
/** ValueType.INT: routing values may be numbers or strings. */
const INT_OR_STRING = new Set<Token>(['VALUE_NUMBER', 'VALUE_STRING']);

function oneString(ctx: ParseCtx, parser: string, key: string, v: unknown): string[] {
  assertSupports(ctx, parser, key, v, VT.STRING);
  return [v as string];
}

function stringList(ctx: ParseCtx, parser: string, key: string, v: unknown): string[] {
  assertSupports(ctx, parser, key, v, VT.STRING_ARRAY);
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (typeof x === 'string' ? x : scalarText(x as string)));
}

function parseAction(ctx: ParseCtx, kind: AliasActionKind, body: Record<string, unknown>): AliasActionSpec {
  const action: AliasActionSpec = { kind, indices: [], aliases: [], spec: {} };
  let indicesSet = false;
  for (const [rawKey, v] of Object.entries(body)) {
    const key = kind === 'add' ? (ROUTING_NAMES[rawKey] ?? rawKey) : rawKey;
    if (!FIELDS[kind].includes(key)) throw unknownField(ctx, kind, rawKey, FIELDS[kind]);
    switch (key) {
      case 'index':
      case 'indices': {
        const list = key === 'index' ? oneString(ctx, kind, rawKey, v) : stringList(ctx, kind, rawKey, v);
        parseField(ctx, kind, rawKey, () => {
          if (indicesSet) throw illegalArgument('Only one of [index] and [indices] is supported');
          if (key === 'index' && list[0] === '') throw illegalArgument("[index] can't be empty string");
          if (key === 'indices' && list.length === 0) throw illegalArgument("[indices] can't be empty");
          if (key === 'indices' && list.includes(''))
            throw illegalArgument("[indices] can't contain empty string");
        });
        indicesSet = true;
        action.indices = list;
        break;
      }
      case 'alias':
      case 'aliases': {
        const list = key === 'alias' ? oneString(ctx, kind, rawKey, v) : stringList(ctx, kind, rawKey, v);
        parseField(ctx, kind, rawKey, () => {
          if (action.aliases.length > 0)
            throw illegalArgument('Only one of [alias] and [aliases] is supported');
          if (kind === 'remove_index') throw illegalArgument(`[${key}] is unsupported for [REMOVE_INDEX]`);
          if (key === 'alias' && list[0] === '') throw illegalArgument("[alias] can't be empty string");
          if (key === 'aliases' && list.length === 0) throw illegalArgument("[aliases] can't be empty");
          if (key === 'aliases' && list.includes(''))
            throw illegalArgument("[aliases] can't contain empty string");
        });
        action.aliases = list;
        break;
      }
      case 'filter':
        assertSupports(ctx, kind, rawKey, v, VT.OBJECT);
        action.spec.filter = v;
        break;
      case 'routing':
      case 'index_routing':
      case 'search_routing':
        assertSupports(ctx, kind, rawKey, v, INT_OR_STRING);
        action.spec[key] = scalarText(v as string);
        break;
      case 'is_write_index':
      case 'is_hidden':
        assertSupports(ctx, kind, rawKey, v, VT.BOOLEAN);
        action.spec[key] = parseField(ctx, kind, rawKey, () => booleanValue(ctx, v));
        break;
      case 'must_exist':
        assertSupports(ctx, kind, rawKey, v, VT.BOOLEAN);
        action.mustExist = parseField(ctx, kind, rawKey, () => booleanValue(ctx, v));
        break;
    }
  }
  return action;
}

function parseEntry(ctx: ParseCtx, entry: unknown): AliasActionSpec {
  if (!isObject(entry)) {
    throw xContentParseError(
      `[alias_action] Expected START_OBJECT but was: ${tokenOf(entry)}`,
      here(ctx, 'value'),
    );
  }
  let found: AliasActionSpec | undefined;
  for (const [key, v] of Object.entries(entry)) {
    if (!KINDS.includes(key as AliasActionKind)) throw unknownField(ctx, 'alias_action', key, KINDS);
    assertSupports(ctx, 'alias_action', key, v, VT.OBJECT);
    const action = parseField(ctx, 'alias_action', key, () =>
      parseAction(ctx, key as AliasActionKind, v as Record<string, unknown>),
    );
    if (found) throw illegalArgument('Too many operations declared on operation entry');
    found = action;
  }
  if (!found) throw actionRequestValidation(['One of [index] or [indices] is required']);
  return found;
}

/**
 * Returns the actions in order, or throws. An action without an index or an alias is refused
 * here too (AliasActions.validate), so nothing is applied from a request with a bad action.
 */
export function parseAliasActions(body: unknown): AliasActionSpec[] {
  const ctx = newCtx(body);
  if (!isObject(body)) throw actionRequestValidation(['No action specified']);
  let actions: AliasActionSpec[] = [];
  for (const [key, v] of Object.entries(body)) {
    if (key !== 'actions') throw unknownField(ctx, 'aliases', key, ['actions']);
    assertSupports(ctx, 'aliases', key, v, OBJECT_ARRAY);
    const list = Array.isArray(v) ? v : [v];
    actions = parseField(ctx, 'aliases', key, () =>
      list.map((entry, i) => {
        if (Array.isArray(v)) ctx.path.push(i);
        const action = parseEntry(ctx, entry);
        if (Array.isArray(v)) ctx.path.pop();
        return action;
      }),
    );
  }
  if (actions.length === 0) throw actionRequestValidation(['No action specified']);
  return actions;
}
