import { describe, expect, it } from 'vitest';
import { PIVOT_PAGE_SIZE_DEPRECATION } from './pivot-config.ts';
import { BodyReader } from './strict-body.ts';
import { configJson, pageSize, parseTransformConfig, validateTransformId } from './transform-config.ts';

const BODY = {
  source: { index: 'src' },
  dest: { index: 'dest' },
  pivot: { group_by: { k: { terms: { field: 'k' } } }, aggs: { n: { value_count: { field: 'k' } } } },
};

function parse(body: unknown, warnings: string[] = []) {
  const text = JSON.stringify(body, null, 2);
  return parseTransformConfig(new BodyReader(text), 't', JSON.parse(text), warnings, { now: 5 });
}

function reason(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as { reason?: string }).reason ?? String(e);
  }
  return 'no error';
}

describe('transform configuration', () => {
  it('fills the defaults GET shows', () => {
    const c = parse({ ...BODY, sync: { time: { field: 'ts' } } });
    const json = configJson(c);
    expect(json.source).toEqual({ index: ['src'], query: { match_all: {} } });
    expect(json.sync).toEqual({ time: { field: 'ts', delay: '60s' } });
    expect(json.settings).toEqual({});
    expect(json.create_time).toBe(5);
    expect(pageSize(c)).toBe(500);
  });

  it('reads unknown fields as Elasticsearch does, with their position', () => {
    expect(reason(() => parse({ ...BODY, foo: 1 }))).toMatch(
      /^\[\d+:\d+\] \[data_frame_transform_config\] unknown field \[foo\]$/,
    );
    expect(reason(() => parse({ ...BODY, version: '7.3.0' }))).toMatch(
      /Found \[version\], not allowed for strict parsing/,
    );
  });

  it('keeps the deprecated pivot page size, with its warning; settings win', () => {
    const warnings: string[] = [];
    const c = parse({ ...BODY, pivot: { ...BODY.pivot, max_page_search_size: 50 } }, warnings);
    expect(warnings).toEqual([PIVOT_PAGE_SIZE_DEPRECATION]);
    expect(pageSize(c)).toBe(50);
    const both = parse({
      ...BODY,
      pivot: { ...BODY.pivot, max_page_search_size: 50 },
      settings: { max_page_search_size: 70 },
    });
    expect(pageSize(both)).toBe(70);
  });

  it('refuses what TransformConfig.validate refuses', () => {
    expect(reason(() => parse({ ...BODY, latest: { unique_key: ['k'], sort: 't' } }))).toBe(
      'Transform configuration must specify exactly 1 function',
    );
    expect(reason(() => parse({ ...BODY, settings: { max_page_search_size: 65537 } }))).toBe(
      'Validation Failed: 1: settings.max_page_search_size [65537] is out of range. The minimum value is 10 and the maximum is 65536;',
    );
    expect(reason(() => parse({ ...BODY, id: 'other' }))).toBe(
      "Inconsistent id; 'other' specified in the body differs from 't' specified as a URL argument",
    );
    expect(
      reason(() => parse({ ...BODY, retention_policy: { time: { field: 't', max_age: '10s' } } })),
    ).toMatch(/max_age must be greater than 60s/);
    expect(reason(() => validateTransformId('Bad'))).toMatch(/Invalid transform_id; 'Bad' can contain/);
  });
});
