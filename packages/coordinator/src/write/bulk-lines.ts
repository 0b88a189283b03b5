/**
 * Splits a `_bulk` body into write items. Action lines are small and parsed here (routing needs
 * `_index`, `_id` and `routing`); document lines stay bytes and travel to the shard untouched.
 * Update lines are parsed to pull out `doc` and `upsert`.
 */
import { actionRequestValidation, illegalArgument, parseJson, ShoalError, tokenOf } from '@shoal/protocol';
import type { WriteItem } from './write-item.ts';

const ACTIONS = new Set(['index', 'create', 'update', 'delete']);
const NEWLINE = 0x0a;

export interface BulkDefaults {
  index?: string;
  routing?: string;
  requireAlias?: boolean;
}

function malformed(line: number, detail: string): ShoalError {
  return illegalArgument(`Malformed action/metadata line [${line}], ${detail}`);
}

function isBlank(buf: Uint8Array): boolean {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

function toJsonBytes(v: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
}

function optInt(meta: Record<string, unknown>, key: string): number | undefined {
  const v = meta[key];
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw illegalArgument(`[${key}] must be an integer, got [${String(v)}]`);
  return n;
}

export function parseBulkBody(body: Buffer | undefined, defaults: BulkDefaults): WriteItem[] {
  if (!body || body.length === 0) throw actionRequestValidation(['no requests added']);
  if (body[body.length - 1] !== NEWLINE) {
    throw illegalArgument('The bulk request must be terminated by a newline [\\n]');
  }
  const items: WriteItem[] = [];
  const missingIndex: number[] = [];
  let pos = 0;
  let lineNo = 0;
  const nextLine = (): Buffer | undefined => {
    while (pos < body.length) {
      const end = body.indexOf(NEWLINE, pos);
      const line = body.subarray(pos, end);
      pos = end + 1;
      lineNo++;
      if (!isBlank(line)) return line;
    }
    return undefined;
  };
  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    const actionLine = lineNo;
    const parsed = parseJson(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw malformed(actionLine, `expected START_OBJECT or END_OBJECT but found [${tokenOf(parsed)}]`);
    }
    const keys = Object.keys(parsed);
    const action = keys[0];
    if (action === undefined || !ACTIONS.has(action)) {
      throw malformed(
        actionLine,
        `expected field [create], [delete], [index] or [update] but found [${action}]`,
      );
    }
    if (keys.length > 1) {
      throw malformed(actionLine, `expected END_OBJECT but found [FIELD_NAME]`);
    }
    const meta = (parsed as Record<string, unknown>)[action];
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
      throw malformed(actionLine, `expected START_OBJECT but found [${tokenOf(meta)}]`);
    }
    const m = meta as Record<string, unknown>;
    const target = (m._index as string | undefined) ?? defaults.index;
    if (target === undefined) missingIndex.push(items.length);
    const item: WriteItem = {
      action: action as WriteItem['action'],
      target: target ?? '',
      id: m._id === undefined || m._id === null ? undefined : String(m._id),
      routing: (m.routing as string | undefined) ?? defaults.routing,
      ifSeqNo: optInt(m, 'if_seq_no'),
      ifPrimaryTerm: optInt(m, 'if_primary_term'),
      version: optInt(m, 'version'),
      versionType: m.version_type as WriteItem['versionType'],
      requireAlias: (m.require_alias as boolean | undefined) ?? defaults.requireAlias,
    };
    if (action !== 'delete') {
      const doc = nextLine();
      if (doc === undefined) {
        throw illegalArgument(`The bulk request must be terminated by a newline [\\n]`);
      }
      if (action === 'update') {
        const u = parseJson(doc) as Record<string, unknown>;
        if (u === null || typeof u !== 'object') throw malformed(lineNo, 'expected START_OBJECT');
        if (u.script !== undefined) {
          throw new ShoalError(
            'not_implemented_exception',
            'scripted updates are not supported by Shoal yet',
            501,
          );
        }
        if (u.doc !== undefined) item.body = toJsonBytes(u.doc);
        if (u.upsert !== undefined) item.upsert = toJsonBytes(u.upsert);
        item.docAsUpsert = u.doc_as_upsert === true;
        item.detectNoop = u.detect_noop !== false;
        item.returnSource = u._source !== undefined && u._source !== false;
        if (!item.body && !item.upsert) {
          throw actionRequestValidation(['script or doc is missing']);
        }
      } else {
        item.body = doc;
      }
    }
    items.push(item);
  }
  if (items.length === 0) throw actionRequestValidation(['no requests added']);
  if (missingIndex.length > 0) throw actionRequestValidation(missingIndex.map(() => 'index is missing'));
  return items;
}
