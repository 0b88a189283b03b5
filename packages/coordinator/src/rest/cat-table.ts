/**
 * `_cat` output: aligned text columns (`?v` adds the header, `?h=` picks columns, `?s=` sorts,
 * `?help` lists columns) or JSON rows with `?format=json` or an `Accept: application/json`.
 * As Elasticsearch's RestTable: `h` takes names, aliases and `*` wildcards, skips names it does
 * not know, and shows each column under the name it was asked by; `?ts=false` hides the
 * timestamp columns.
 */
import { illegalArgument, ShoalError, simpleMatch } from '@shoal/protocol';
import type { RestRequest, RestResponse } from '../http/rest-types.ts';

export interface CatColumn {
  name: string;
  aliases?: string[];
  desc: string;
  /** Shown when no `h` is given. */
  default: boolean;
  /** Right-align (numbers). */
  right?: boolean;
}

export type CatRow = Record<string, string | number | null>;

/** A column to show, under the name the request used for it. */
interface Shown {
  col: CatColumn;
  display: string;
}

/** Columns Elasticsearch's `ts` parameter hides. */
const TIMESTAMP_COLUMNS = new Set(['epoch', 'timestamp']);

function pickColumns(columns: CatColumn[], query: Record<string, string>): Shown[] {
  const showTimestamps = query.ts !== 'false';
  const visible = (c: CatColumn) => showTimestamps || !TIMESTAMP_COLUMNS.has(c.name);
  const h = query.h;
  if (h === undefined)
    return columns.filter((c) => c.default && visible(c)).map((col) => ({ col, display: col.name }));
  // Wildcards expand to the columns whose name or an alias matches, in table order; each name once.
  const wanted = new Set<string>();
  for (const part of h.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    if (!name.includes('*')) {
      wanted.add(name);
      continue;
    }
    for (const c of columns)
      if (simpleMatch(name, c.name) || c.aliases?.some((a) => simpleMatch(name, a))) wanted.add(c.name);
  }
  const shown: Shown[] = [];
  for (const name of wanted) {
    const col = columns.find((c) => c.name === name) ?? columns.find((c) => c.aliases?.includes(name));
    if (col && visible(col)) shown.push({ col, display: name });
  }
  return shown;
}

/** What the table is written as: `format` first, then the Accept header; text otherwise. */
function outputFormat(req: Pick<RestRequest, 'query' | 'headers'>): 'json' | 'text' {
  const format = req.query.format;
  const type =
    format !== undefined
      ? format.toLowerCase()
      : (req.headers.accept ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
  if (type === 'json' || type === 'application/json' || type === 'application/vnd.elasticsearch+json')
    return 'json';
  // YAML and CBOR are written from the JSON rows by the HTTP layer (xcontent-formats.ts).
  if (/^(yaml|cbor)$|^application\/(vnd\.elasticsearch\+)?(yaml|cbor)$/.test(type)) return 'json';
  if (/^smile$|^application\/(vnd\.elasticsearch\+)?smile$/.test(type)) {
    throw new ShoalError(
      'illegal_argument_exception',
      `_cat output as [${type}] is not supported by Shoal: use format=json, yaml, cbor or text`,
      501,
    );
  }
  return 'text';
}

function sortRows(rows: CatRow[], columns: CatColumn[], s: string | undefined): CatRow[] {
  if (!s) return rows;
  const keys = s.split(',').map((k) => {
    const [name, order] = k.split(':');
    const col = columns.find((c) => c.name === name || c.aliases?.includes(name!));
    if (!col) throw illegalArgument(`Unable to sort by unknown sort key \`${name}\``);
    return { col: col.name, desc: order === 'desc' };
  });
  return [...rows].sort((a, b) => {
    for (const { col, desc } of keys) {
      const x = a[col] ?? '';
      const y = b[col] ?? '';
      const c =
        typeof x === 'number' && typeof y === 'number'
          ? x - y
          : String(x) < String(y)
            ? -1
            : String(x) > String(y)
              ? 1
              : 0;
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

export function catResponse(
  req: Pick<RestRequest, 'query' | 'headers'>,
  columns: CatColumn[],
  rows: CatRow[],
): RestResponse {
  const query = req.query;
  if ('help' in query) {
    const text = columns
      .map((c) => `${c.name.padEnd(20)} | ${(c.aliases ?? []).join(',').padEnd(12)} | ${c.desc}`)
      .join('\n');
    return { status: 200, text: `${text}\n` };
  }
  const cols = pickColumns(columns, query);
  const sorted = sortRows(rows, columns, query.s);
  if (outputFormat(req) === 'json') {
    return {
      status: 200,
      body: sorted.map((r) =>
        Object.fromEntries(
          cols.map(({ col, display }) => [display, r[col.name] === null ? null : String(r[col.name] ?? '')]),
        ),
      ),
    };
  }
  const verbose = 'v' in query && query.v !== 'false';
  const table: string[][] = [];
  if (verbose) table.push(cols.map((c) => c.display));
  for (const r of sorted)
    table.push(
      cols.map(({ col }) => (r[col.name] === null || r[col.name] === undefined ? '' : String(r[col.name]))),
    );
  const widths = cols.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, i) => (cols[i]!.col.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' ')
      .trimEnd(),
  );
  return { status: 200, text: lines.length ? `${lines.join('\n')}\n` : '' };
}
