/**
 * Java's toString of parsed JSON values, which Elasticsearch prints in error messages
 * (`[foo : bar]`, `{a=1, b=[x, y]}`, `Preview of field's value: '…'`).
 */
import { javaDoubleToString } from '../dates/index.ts';

export function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'number')
    return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : javaDoubleToString(v);
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(javaToString).join(', ')}]`;
  if (typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, val] of Object.entries(v as Record<string, unknown>))
      parts.push(`${k}=${javaToString(val)}`);
    return `{${parts.join(', ')}}`;
  }
  return String(v);
}
