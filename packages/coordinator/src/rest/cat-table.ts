/**
 * `_cat` output: aligned text columns (`?v` adds the header, `?h=` picks columns, `?s=` sorts,
 * `?help` lists columns) or JSON rows with `?format=json`.
 */
import { illegalArgument } from '@shoal/protocol';
import type { RestResponse } from '../http/rest-types.ts';

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

function pickColumns(columns: CatColumn[], h: string | undefined): CatColumn[] {
  if (!h) return columns.filter((c) => c.default);
  return h.split(',').map((name) => {
    const col = columns.find((c) => c.name === name || c.aliases?.includes(name));
    if (!col) throw illegalArgument(`header [${name}] is not a valid header`);
    return col;
  });
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
  query: Record<string, string>,
  columns: CatColumn[],
  rows: CatRow[],
): RestResponse {
  if ('help' in query) {
    const text = columns
      .map((c) => `${c.name.padEnd(20)} | ${(c.aliases ?? []).join(',').padEnd(12)} | ${c.desc}`)
      .join('\n');
    return { status: 200, text: `${text}\n` };
  }
  const cols = pickColumns(columns, query.h);
  const sorted = sortRows(rows, columns, query.s);
  if (query.format === 'json') {
    return {
      status: 200,
      body: sorted.map((r) =>
        Object.fromEntries(cols.map((c) => [c.name, r[c.name] === null ? null : String(r[c.name] ?? '')])),
      ),
    };
  }
  const verbose = 'v' in query && query.v !== 'false';
  const table: string[][] = [];
  if (verbose) table.push(cols.map((c) => c.name));
  for (const r of sorted)
    table.push(cols.map((c) => (r[c.name] === null || r[c.name] === undefined ? '' : String(r[c.name]))));
  const widths = cols.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, i) => (cols[i]!.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' ')
      .trimEnd(),
  );
  return { status: 200, text: lines.length ? `${lines.join('\n')}\n` : '' };
}
