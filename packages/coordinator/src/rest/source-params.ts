import { parseJson, type SourceFilter } from '@shoal/protocol';

const splitList = (v: string | undefined) =>
  v === undefined || v === ''
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** `_source`, `_source_includes`, `_source_excludes` URL parameters of the document APIs. */
export function sourceFilterFromParams(query: Record<string, string>): SourceFilter {
  const src = query._source;
  let enabled = true;
  let includes: string[] = [];
  if (src !== undefined) {
    if (src === 'false') enabled = false;
    else if (src !== 'true' && src !== '') {
      if (src.startsWith('[') || src.startsWith('{') || src.startsWith('"')) {
        const v = parseJson(src);
        if (Array.isArray(v)) includes = v.map(String);
        else if (typeof v === 'string') includes = [v];
        else if (v && typeof v === 'object') {
          const o = v as { includes?: string[]; excludes?: string[] };
          return { enabled: true, includes: o.includes ?? [], excludes: o.excludes ?? [] };
        }
      } else {
        includes = splitList(src);
      }
    }
  }
  const inc = splitList(query._source_includes);
  const exc = splitList(query._source_excludes);
  if (inc.length > 0 || exc.length > 0) enabled = true;
  return { enabled, includes: [...includes, ...inc], excludes: exc };
}
