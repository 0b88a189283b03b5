/**
 * The transform APIs as Elasticsearch's transform REST tests pin them: put (with and without
 * `defer_validation`), get by id, list, wildcard and `_all` with paging, preview (pivot and
 * latest), a batch pivot and a batch latest run to their checkpoint with the destination index
 * created from deduced mappings, stats, stop, reset, update and delete, and the errors of each.
 */
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, type HttpResult, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let client: Client;

const PIVOT = {
  source: { index: 'airline-data' },
  dest: { index: 'airline-by-airline' },
  pivot: {
    group_by: { airline: { terms: { field: 'airline' } } },
    aggs: { avg_response: { avg: { field: 'responsetime' } }, 'time.max': { max: { field: 'time' } } },
  },
  description: 'yaml test transform on airline-data',
};

async function waitForState(id: string, wanted: RegExp): Promise<HttpResult['json']> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await http(node.url, 'GET', `/_transform/${id}/_stats`);
    const t = r.json.transforms[0];
    if (wanted.test(t.state) || Date.now() > deadline) return t;
    await new Promise((res) => setTimeout(res, 50));
  }
}

beforeAll(async () => {
  node = await startTestNode();
  client = new Client({ node: node.url, auth: node.auth });
  await http(node.url, 'PUT', '/airline-data', {
    mappings: {
      properties: {
        time: { type: 'date' },
        airline: { type: 'keyword' },
        responsetime: { type: 'float' },
        event_rate: { type: 'integer' },
      },
    },
  });
  const docs = [
    { time: '2017-02-18T00:00:00Z', airline: 'foo', responsetime: 1.0, event_rate: 5 },
    { time: '2017-02-18T00:30:00Z', airline: 'foo', responsetime: 1.0, event_rate: 6 },
    { time: '2017-02-18T01:00:00Z', airline: 'bar', responsetime: 42.0, event_rate: 8 },
    { time: '2017-02-18T01:01:00Z', airline: 'foo', responsetime: 42.0, event_rate: 7 },
  ];
  const lines = docs.flatMap((d, i) => [
    JSON.stringify({ index: { _id: String(i + 1) } }),
    JSON.stringify(d),
  ]);
  await http(node.url, 'POST', '/airline-data/_bulk?refresh=true', `${lines.join('\n')}\n`, {
    'content-type': 'application/x-ndjson',
  });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe('put and get', () => {
  it('lists nothing before any transform exists, and 404s without allow_no_match', async () => {
    const r = await http(node.url, 'GET', '/_transform/*');
    expect(r.json).toEqual({ count: 0, transforms: [] });
    const strict = await http(node.url, 'GET', '/_transform/*?allow_no_match=false');
    expect(strict.status).toBe(404);
    const missing = await http(node.url, 'GET', '/_transform/missing-transform-id');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('resource_not_found_exception');
    expect(missing.json.error.reason).toBe('Transform with id [missing-transform-id] could not be found');
  });

  it('puts transforms and gets them by id, list, wildcard, _all and page', async () => {
    expect((await http(node.url, 'PUT', '/_transform/airline-transform', PIVOT)).json).toEqual({
      acknowledged: true,
    });
    const second = { ...PIVOT, dest: { index: 'airline-by-airline-again' } };
    delete (second as Record<string, unknown>).description;
    expect((await http(node.url, 'PUT', '/_transform/airline-transform-dos', second)).status).toBe(200);

    const one = await http(node.url, 'GET', '/_transform/airline-transform');
    expect(one.json.count).toBe(1);
    const t = one.json.transforms[0];
    expect(t.id).toBe('airline-transform');
    expect(t.source.index).toEqual(['airline-data']);
    expect(t.source.query).toEqual({ match_all: {} });
    expect(t.dest.index).toBe('airline-by-airline');
    expect(t.pivot.group_by.airline.terms.field).toBe('airline');
    expect(t.pivot.aggregations.avg_response.avg.field).toBe('responsetime');
    expect(t.description).toBe('yaml test transform on airline-data');
    expect(typeof t.create_time).toBe('number');
    expect(t.version).toBeTruthy();
    expect(t.authorization).toEqual({ roles: ['superuser'] });

    for (const expr of ['*', '_all', 'airline-transform,airline-transform-dos', 'airline-transform*']) {
      const all = await http(node.url, 'GET', `/_transform/${expr}`);
      expect(all.json.count, expr).toBe(2);
      expect(all.json.transforms.map((x: { id: string }) => x.id)).toEqual([
        'airline-transform',
        'airline-transform-dos',
      ]);
      expect(all.json.transforms[1].description).toBeUndefined();
    }
    const paged = await http(node.url, 'GET', '/_transform/airline-transform*?from=1&size=1');
    expect(paged.json.count).toBe(2);
    expect(paged.json.transforms.map((x: { id: string }) => x.id)).toEqual(['airline-transform-dos']);

    const exported = await http(node.url, 'GET', '/_transform/airline-transform?exclude_generated=true');
    expect(exported.json.transforms[0].create_time).toBeUndefined();
    expect(exported.json.transforms[0].version).toBeUndefined();
    expect(exported.json.transforms[0].authorization).toBeUndefined();

    const viaClient = await client.transform.getTransform({ transform_id: 'airline-transform' });
    expect(viaClient.statusCode).toBe(200);
    expect(viaClient.body.count).toBe(1);
  });

  it('answers a duplicate with resource_already_exists_exception', async () => {
    const r = await http(node.url, 'PUT', '/_transform/airline-transform', PIVOT);
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('resource_already_exists_exception');
    expect(r.json.error.reason).toBe('Transform with id [airline-transform] already exists');
  });

  it('refuses bad configurations with Elasticsearch errors', async () => {
    const put = (id: string, body: unknown, q = '') => http(node.url, 'PUT', `/_transform/${id}${q}`, body);
    const cases: [string, unknown, RegExp, number][] = [
      ['f-low', { ...PIVOT, frequency: '999ms' }, /minimum permitted \[frequency\] is \[1s\]/, 400],
      ['f-high', { ...PIVOT, frequency: '3600001ms' }, /highest permitted \[frequency\] is \[1h\]/, 400],
      [
        'missing-source',
        { ...PIVOT, source: { index: 'missing-index' } },
        /Validation Failed: 1: no such index \[missing-index\];/,
        400,
      ],
      [
        'dest-in-source',
        { ...PIVOT, source: { index: ['airline-data*'] }, dest: { index: 'airline-data-by-airline' } },
        /never/,
        0,
      ],
      [
        'page-size',
        { ...PIVOT, pivot: { ...PIVOT.pivot, max_page_search_size: 5 } },
        /pivot\.max_page_search_size \[5\] is out of range. The minimum value is 10 and the maximum is 65536/,
        400,
      ],
      [
        'retries',
        { ...PIVOT, settings: { num_failure_retries: 101 } },
        /settings\.num_failure_retries \[101\] is out of range. The minimum value is -1 \(infinity\) and the maximum is 100/,
        400,
      ],
      [
        'dup-field',
        {
          ...PIVOT,
          pivot: { group_by: PIVOT.pivot.group_by, aggs: { airline: { avg: { field: 'responsetime' } } } },
        },
        /duplicate field \[airline\] detected/,
        400,
      ],
      [
        'obj-field',
        {
          ...PIVOT,
          pivot: {
            group_by: PIVOT.pivot.group_by,
            aggs: { 'airline.responsetime': { avg: { field: 'responsetime' } } },
          },
        },
        /field \[airline\] cannot be both an object and a field/,
        400,
      ],
      [
        'upper',
        { ...PIVOT, dest: { index: 'DeStInAtIoN' } },
        /Validation Failed.* Destination index \[DeStInAtIoN\] must be lowercase/,
        400,
      ],
      [
        'hash',
        { ...PIVOT, dest: { index: 'destination#dest' } },
        /Invalid index name \[destination#dest\], must not contain '#'/,
        400,
      ],
      [
        'create-time',
        { ...PIVOT, create_time: 123456789 },
        /Found \[create_time\], not allowed for strict parsing/,
        400,
      ],
      ['version', { ...PIVOT, version: '7.3.0' }, /Found \[version\], not allowed for strict parsing/, 400],
      [
        'pipeline',
        { ...PIVOT, dest: { index: 'x', pipeline: 'missing-transform-pipeline' } },
        /Pipeline with id \[missing-transform-pipeline\] could not be found/,
        400,
      ],
      [
        'latest-empty',
        { ...PIVOT, pivot: undefined, latest: { unique_key: [], sort: 'time' } },
        /latest.unique_key must be non-empty/,
        400,
      ],
      [
        'latest-dup',
        { ...PIVOT, pivot: undefined, latest: { unique_key: ['airline', 'airline'], sort: 'time' } },
        /latest.unique_key elements must be unique, found duplicate element \[airline\]/,
        400,
      ],
      [
        'latest-sort',
        { ...PIVOT, pivot: undefined, latest: { unique_key: ['airline'], sort: '' } },
        /latest.sort must be non-empty/,
        400,
      ],
      [
        'bad-terms',
        {
          ...PIVOT,
          pivot: {
            group_by: { airline: { terms: { not_a_terms_param: 'airline' } } },
            aggs: PIVOT.pivot.aggs,
          },
        },
        /\[data_frame_terms_group\] unknown field \[not_a_terms_param\]/,
        400,
      ],
      [
        'unsupported',
        {
          ...PIVOT,
          pivot: {
            group_by: PIVOT.pivot.group_by,
            aggs: { vals: { significant_terms: { field: 'airline' } } },
          },
        },
        /Unsupported aggregation type \[significant_terms\]/,
        400,
      ],
      [
        '!@#$%^&*(bad',
        PIVOT,
        /can contain lowercase alphanumeric \(a-z and 0-9\), hyphens or underscores; must start and end with alphanumeric/,
        400,
      ],
      ['a'.repeat(65), PIVOT, /The id cannot contain more than 64 character/, 400],
    ];
    for (const [id, body, reason, status] of cases) {
      if (status === 0) continue;
      const r = await put(encodeURIComponent(id), body);
      expect(r.status, id).toBe(status);
      expect(JSON.stringify(r.json.error), id).toMatch(reason);
    }
    const destInSource = await put('dest-in-source', {
      ...PIVOT,
      source: { index: ['airline-data*'] },
      dest: { index: 'airline-data-by-airline' },
    });
    expect(destInSource.status).toBe(200);
    await http(node.url, 'PUT', '/airline-data-by-airline', {});
    const now = await put('dest-in-source-2', {
      ...PIVOT,
      source: { index: ['airline-data*'] },
      dest: { index: 'airline-data-by-airline' },
    });
    expect(now.json.error.reason).toMatch(
      /Destination index \[airline-data-by-airline\] is included in source expression \[airline-data,airline-data-by-airline\]/,
    );
    await http(node.url, 'DELETE', '/airline-data-by-airline');
    await http(node.url, 'DELETE', '/_transform/dest-in-source');
  });

  it('defers validation when asked (missing source, missing pipeline), and checks it at start', async () => {
    const deferred = await http(node.url, 'PUT', '/_transform/deferred?defer_validation=true', {
      ...PIVOT,
      source: { index: 'missing-index' },
    });
    expect(deferred.json).toEqual({ acknowledged: true });
    const piped = await http(node.url, 'PUT', '/_transform/piped?defer_validation=true', {
      ...PIVOT,
      dest: { index: 'piped-dest', pipeline: 'missing-transform-pipeline' },
    });
    expect(piped.status).toBe(200);
    const start = await http(node.url, 'POST', '/_transform/piped/_start');
    expect(start.status).toBe(400);
    expect(start.json.error.reason).toBe('Pipeline with id [missing-transform-pipeline] could not be found');
    const startMissing = await http(node.url, 'POST', '/_transform/deferred/_start');
    expect(startMissing.json.error.reason).toMatch(/no such index \[missing-index\]/);
    for (const id of ['deferred', 'piped']) {
      expect((await http(node.url, 'DELETE', `/_transform/${id}`)).json).toEqual({ acknowledged: true });
    }
  });

  it('keeps pivot.max_page_search_size working with its deprecation warning', async () => {
    const r = await http(node.url, 'PUT', '/_transform/deprecated-size', {
      ...PIVOT,
      pivot: { ...PIVOT.pivot, max_page_search_size: 100 },
    });
    expect(r.status).toBe(200);
    expect(String(r.headers.warning)).toContain(
      '[max_page_search_size] is deprecated inside pivot please use settings instead',
    );
    await http(node.url, 'DELETE', '/_transform/deprecated-size');
  });
});

describe('preview', () => {
  it('previews a pivot with formatted date keys and the generated destination index', async () => {
    const r = await http(node.url, 'POST', '/_transform/_preview', {
      source: { index: 'airline-data' },
      pivot: {
        group_by: {
          'by-hour': { date_histogram: { fixed_interval: '1h', field: 'time' } },
          airline: { terms: { field: 'airline' } },
        },
        aggs: {
          avg_response: { avg: { field: 'responsetime' } },
          'time.max': { max: { field: 'time' } },
          'time.min': { min: { field: 'time' } },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.preview).toEqual([
      {
        'by-hour': '2017-02-18T00:00:00.000Z',
        airline: 'foo',
        avg_response: 1,
        time: { max: '2017-02-18T00:30:00.000Z', min: '2017-02-18T00:00:00.000Z' },
      },
      {
        'by-hour': '2017-02-18T01:00:00.000Z',
        airline: 'bar',
        avg_response: 42,
        time: { max: '2017-02-18T01:00:00.000Z', min: '2017-02-18T01:00:00.000Z' },
      },
      {
        'by-hour': '2017-02-18T01:00:00.000Z',
        airline: 'foo',
        avg_response: 42,
        time: { max: '2017-02-18T01:01:00.000Z', min: '2017-02-18T01:01:00.000Z' },
      },
    ]);
    const props = r.json.generated_dest_index.mappings.properties;
    expect(props.airline.type).toBe('keyword');
    expect(props['by-hour'].type).toBe('date');
    expect(props.avg_response.type).toBe('double');
    expect(props['time.max'].type).toBe('date');
    expect(r.json.generated_dest_index.settings).toEqual({
      index: { number_of_shards: '1', auto_expand_replicas: '0-1' },
    });
    expect(r.json.generated_dest_index.mappings._meta.created_by).toBe('transform');
  });

  it('previews a geotile_grid group_by: one row per tile, keyed by the tile as a polygon', async () => {
    await http(node.url, 'PUT', '/places', { mappings: { properties: { loc: { type: 'geo_point' } } } });
    const lines = [
      [52.374, 4.912],
      [52.369, 4.901],
      [48.861, 2.336],
    ].flatMap(([lat, lon], i) => [
      JSON.stringify({ index: { _id: String(i + 1) } }),
      JSON.stringify({ loc: { lat, lon }, n: i + 1 }),
    ]);
    await http(node.url, 'POST', '/places/_bulk?refresh=true', `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
    });
    const r = await http(node.url, 'POST', '/_transform/_preview', {
      source: { index: 'places' },
      pivot: {
        group_by: { tile: { geotile_grid: { field: 'loc', precision: 4 } } },
        aggs: { total: { sum: { field: 'n' } } },
      },
    });
    expect(r.status, r.text).toBe(200);
    // Zoom 4: Amsterdam and Paris both fall in tile 4/8/5 (tiles 22.5° wide).
    expect(r.json.preview).toHaveLength(1);
    expect(r.json.preview[0].total).toBe(6);
    expect(r.json.preview[0].tile.type).toBe('polygon');
    const [ring] = r.json.preview[0].tile.coordinates;
    const top = ring[0][1];
    const bottom = ring[2][1];
    expect(top).toBeCloseTo(55.7765730186677, 6);
    expect(bottom).toBeCloseTo(40.97989806962013, 6);
    expect(ring).toEqual([
      [22.5, top],
      [0, top],
      [0, bottom],
      [22.5, bottom],
      [22.5, top],
    ]);
    expect(r.json.generated_dest_index.mappings.properties.tile.type).toBe('geo_shape');
    const fine = await http(node.url, 'POST', '/_transform/_preview', {
      source: { index: 'places' },
      pivot: {
        group_by: { tile: { geotile_grid: { field: 'loc', precision: 10 } } },
        aggs: { total: { sum: { field: 'n' } } },
      },
    });
    expect(fine.json.preview.map((p: { total: number }) => p.total).sort()).toEqual([3, 3]);
    // Running it would write geo_shape fields, a field type Shoal does not have.
    const put = await http(node.url, 'PUT', '/_transform/places-by-tile', {
      source: { index: 'places' },
      dest: { index: 'places-by-tile' },
      pivot: { group_by: { tile: { geotile_grid: { field: 'loc', precision: 4 } } }, aggs: {} },
    });
    expect(put.status, put.text).toBe(200);
    const start = await http(node.url, 'POST', '/_transform/places-by-tile/_start');
    expect(start.status, start.text).toBe(501);
    expect(start.json.error.reason).toBe(
      '[geo_shape] destination fields [tile] of a transform is not implemented in Shoal',
    );
    expect((await http(node.url, 'HEAD', '/places-by-tile')).status).toBe(404);
    await http(node.url, 'DELETE', '/_transform/places-by-tile');
  });

  it('previews latest, a stored transform by id, and refuses what Elasticsearch refuses', async () => {
    const latest = await http(node.url, 'POST', '/_transform/_preview', {
      source: { index: 'airline-data' },
      latest: { unique_key: ['airline'], sort: 'time' },
    });
    expect(latest.json.preview.map((d: { airline: string; time: string }) => [d.airline, d.time])).toEqual([
      ['bar', '2017-02-18T01:00:00Z'],
      ['foo', '2017-02-18T01:01:00Z'],
    ]);
    expect(latest.json.generated_dest_index.mappings.properties).toEqual({});

    const byId = await http(node.url, 'GET', '/_transform/airline-transform/_preview');
    expect(byId.json.preview.map((d: { airline: string }) => d.airline)).toEqual(['bar', 'foo']);

    const missing = await http(node.url, 'GET', '/_transform/non-existent-transform/_preview');
    expect(missing.status).toBe(404);
    expect(missing.json.error.reason).toBe('Transform with id [non-existent-transform] could not be found');
    const neither = await http(node.url, 'POST', '/_transform/_preview');
    expect(neither.json.error.reason).toMatch(/Please provide a transform \[id\] or the config object/);
    const both = await http(node.url, 'POST', '/_transform/x/_preview', PIVOT);
    expect(both.json.error.reason).toMatch(
      /Please provide either a transform \[id\] or the config object but not both/,
    );
    const noIndex = await http(node.url, 'POST', '/_transform/_preview', {
      ...PIVOT,
      source: { index: ['airline-data', 'does_not_exist'] },
    });
    expect(noIndex.json.error.reason).toMatch(/Validation Failed.* no such index \[does_not_exist\]/);
  });
});

describe('running', () => {
  it('runs a batch pivot to its checkpoint into a destination index with deduced mappings', async () => {
    const start = await http(node.url, 'POST', '/_transform/airline-transform/_start');
    expect(start.json).toEqual({ acknowledged: true });
    const again = await http(node.url, 'POST', '/_transform/airline-transform/_start');
    // Either still running (409) or already done with its only checkpoint.
    if (again.status !== 200) {
      expect(again.status).toBe(409);
      expect(again.json.error.reason).toMatch(
        /Cannot start transform \[airline-transform\] as it is already started/,
      );
    }
    const stats = await waitForState('airline-transform', /^stopped$/);
    expect(stats.checkpointing.last.checkpoint).toBe(1);
    expect(stats.stats.documents_processed).toBe(4);
    expect(stats.stats.documents_indexed).toBe(2);
    expect(stats.stats.pages_processed).toBeGreaterThanOrEqual(1);
    expect(stats.stats.trigger_count).toBeGreaterThanOrEqual(1);
    expect(stats.health).toEqual({ status: 'green' });
    expect(Object.keys(stats.stats).slice(0, 5)).toEqual([
      'pages_processed',
      'documents_processed',
      'documents_indexed',
      'documents_deleted',
      'trigger_count',
    ]);
    const cat = await http(node.url, 'GET', '/_cat/transforms/airline-transform*?v');
    const lines = cat.text
      .trim()
      .split('\n')
      .map((l: string) => l.trim().split(/\s+/));
    expect(lines[0]).toEqual([
      'id',
      'state',
      'checkpoint',
      'documents_processed',
      'checkpoint_progress',
      'last_search_time',
      'changes_last_detection_time',
    ]);
    expect(lines[1]).toEqual(['airline-transform', 'stopped', '1', '4']);
    expect(lines[2]).toEqual(['airline-transform-dos', 'stopped', '0', '0']);
    const picked = await http(
      node.url,
      'GET',
      '/_cat/transforms/airline-transform?h=id,source_index,dest_index,docp,cdtea,tt&format=json',
    );
    expect(picked.json).toEqual([
      {
        id: 'airline-transform',
        source_index: 'airline-data',
        dest_index: 'airline-by-airline',
        docp: '4',
        cdtea: picked.json[0].cdtea,
        tt: 'batch',
      },
    ]);
    expect(picked.json[0].cdtea).toMatch(/^\d+\.\d\d$/);
    const all = await http(node.url, 'GET', '/_transform/_stats');
    expect(all.json.count).toBe(2);
    expect(all.json.transforms.map((t: { id: string; state: string }) => [t.id, t.state])).toEqual([
      ['airline-transform', 'stopped'],
      ['airline-transform-dos', 'stopped'],
    ]);

    const mapping = await http(node.url, 'GET', '/airline-by-airline/_mapping');
    const props = mapping.json['airline-by-airline'].mappings.properties;
    expect(props.airline.type).toBe('keyword');
    expect(props.avg_response.type).toBe('double');
    const docs = await http(node.url, 'POST', '/airline-by-airline/_search', { sort: ['airline'] });
    expect(docs.json.hits.hits.map((h: { _source: unknown }) => h._source)).toEqual([
      { airline: 'bar', avg_response: 42, time: { max: '2017-02-18T01:00:00.000Z' } },
      { airline: 'foo', avg_response: 14.666666666666666, time: { max: '2017-02-18T01:01:00.000Z' } },
    ]);
  });

  it('runs a batch latest, and a transform with deduce_mappings off writes into an unmapped index', async () => {
    await http(node.url, 'PUT', '/_transform/latest-by-airline', {
      source: { index: 'airline-data' },
      dest: { index: 'latest-by-airline' },
      latest: { unique_key: ['airline'], sort: 'time' },
    });
    await http(node.url, 'POST', '/_transform/latest-by-airline/_start');
    expect((await waitForState('latest-by-airline', /^stopped$/)).checkpointing.last.checkpoint).toBe(1);
    // Latest writes the source documents as they are: dynamic mappings type them.
    const docs = await http(node.url, 'POST', '/latest-by-airline/_search', { sort: ['airline.keyword'] });
    expect(docs.json.hits.hits.map((h: { _source: { event_rate: number } }) => h._source.event_rate)).toEqual(
      [8, 7],
    );

    await http(node.url, 'PUT', '/latest-v0', {});
    await http(node.url, 'POST', '/_aliases', {
      actions: [{ add: { index: 'latest-v0', alias: 'latest-current' } }],
    });
    await http(node.url, 'PUT', '/_transform/latest-aliased', {
      source: { index: 'airline-data' },
      dest: {
        index: 'latest-v1',
        aliases: [
          { alias: 'latest-current', move_on_creation: true },
          { alias: 'latest-all', move_on_creation: false },
        ],
      },
      latest: { unique_key: ['airline'], sort: 'time' },
    });
    await http(node.url, 'POST', '/_transform/latest-aliased/_start');
    await waitForState('latest-aliased', /^stopped$/);
    const aliases = await http(node.url, 'GET', '/_alias/latest-*');
    expect(aliases.json['latest-v1'].aliases).toEqual({ 'latest-current': {}, 'latest-all': {} });
    expect(aliases.json['latest-v0']).toBeUndefined();
    expect(
      (await http(node.url, 'GET', '/_transform/latest-aliased')).json.transforms[0].dest.aliases,
    ).toEqual([
      { alias: 'latest-current', move_on_creation: true },
      { alias: 'latest-all', move_on_creation: false },
    ]);

    await http(node.url, 'PUT', '/_transform/no-deduce', {
      ...PIVOT,
      dest: { index: 'no-deduce' },
      settings: { deduce_mappings: false },
    });
    await http(node.url, 'POST', '/_transform/no-deduce/_start');
    const mapping = await http(node.url, 'GET', '/no-deduce/_mapping');
    expect(mapping.json['no-deduce'].mappings._meta.created_by).toBe('transform');
    await waitForState('no-deduce', /^stopped$/);
    await http(node.url, 'DELETE', '/_transform/no-deduce?delete_dest_index=true');
    expect((await http(node.url, 'HEAD', '/no-deduce')).status).toBe(404);
  });

  it('stops, resets, updates and deletes with the errors Elasticsearch gives', async () => {
    expect((await http(node.url, 'POST', '/_transform/missing-transform/_start')).status).toBe(404);
    expect((await http(node.url, 'POST', '/_transform/missing-transform/_stop')).status).toBe(404);
    expect((await http(node.url, 'POST', '/_transform/missing-transform*/_stop')).json).toEqual({
      acknowledged: true,
    });
    expect(
      (await http(node.url, 'POST', '/_transform/missing-transform*/_stop?allow_no_match=false')).status,
    ).toBe(404);
    const both = await http(
      node.url,
      'POST',
      '/_transform/airline-transform/_stop?force=true&wait_for_checkpoint=true',
    );
    expect(both.json.error.reason).toMatch(/cannot set both \[force\] and \[wait_for_checkpoint\] to true/);
    expect((await http(node.url, 'POST', '/_transform/airline-transform/_stop')).json).toEqual({
      acknowledged: true,
    });
    const notStarted = await http(node.url, 'POST', '/_transform/airline-transform/_schedule_now');
    expect(notStarted.status).toBe(409);
    const batchFrom = await http(
      node.url,
      'POST',
      '/_transform/airline-transform/_start?from=2023-01-11T12:00:00',
    );
    expect(batchFrom.json.error.reason).toMatch(
      /\[from\] parameter is currently not supported for batch \(non-continuous\) transforms/,
    );

    const updated = await http(node.url, 'POST', '/_transform/airline-transform/_update', {
      description: 'updated',
      frequency: '5s',
      settings: { max_page_search_size: 20 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.description).toBe('updated');
    expect(updated.json.frequency).toBe('5s');
    expect(updated.json.settings).toEqual({ max_page_search_size: 20 });
    const update = (body: unknown, q = '') =>
      http(node.url, 'POST', `/_transform/airline-transform/_update${q}`, body);
    expect(
      (await http(node.url, 'POST', '/_transform/missing-transform/_update', { description: 'x' })).status,
    ).toBe(404);
    expect((await update({ frequency: '999ms' })).json.error.reason).toMatch(
      /minimum permitted \[frequency\] is \[1s\]/,
    );
    expect((await update({ dest: { index: 'destination#dest' } })).json.error.reason).toMatch(
      /Validation Failed.* Invalid index name \[destination#dest\], must not contain '#'/,
    );
    expect((await update({ source: { index: 'missing-index' } })).json.error.reason).toMatch(
      /Validation Failed.* no such index \[missing-index\]/,
    );
    const meta = await update({
      _meta: { foo: 123, baz: { a1: 11 } },
      retention_policy: { time: { field: 'time.max', max_age: '24h' } },
    });
    expect(meta.json._meta).toEqual({ foo: 123, baz: { a1: 11 } });
    expect(meta.json.retention_policy).toEqual({ time: { field: 'time.max', max_age: '24h' } });
    // _meta is replaced whole; a null retention_policy removes it.
    const replaced = await update({ _meta: { baz: { a2: 222 } }, retention_policy: null });
    expect(replaced.json._meta).toEqual({ baz: { a2: 222 } });
    expect(replaced.json.retention_policy).toBeUndefined();
    const badUpdate = await http(node.url, 'POST', '/_transform/airline-transform/_update', { pivot: {} });
    expect(badUpdate.status).toBe(400);
    const toContinuous = await http(node.url, 'POST', '/_transform/airline-transform/_update', {
      sync: { time: { field: 'time' } },
    });
    expect(toContinuous.json.error.reason).toMatch(/Cannot change the current sync configuration/);

    expect((await http(node.url, 'POST', '/_transform/airline-transform/_reset')).json).toEqual({
      acknowledged: true,
    });
    const reset = await http(node.url, 'GET', '/_transform/airline-transform/_stats');
    expect(reset.json.transforms[0].checkpointing.last.checkpoint).toBe(0);
    expect(reset.json.transforms[0].stats.documents_indexed).toBe(0);
    expect((await http(node.url, 'HEAD', '/airline-by-airline')).status).toBe(404);

    const upgrade = await http(node.url, 'POST', '/_transform/_upgrade');
    expect(upgrade.json.needs_update).toBe(0);

    expect((await http(node.url, 'DELETE', '/_transform/airline-transform')).json).toEqual({
      acknowledged: true,
    });
    expect((await http(node.url, 'GET', '/_transform/airline-transform')).status).toBe(404);
    expect((await http(node.url, 'DELETE', '/_transform/missing%20transform')).status).toBe(404);
  });
});

describe('authorization', () => {
  const joe = { authorization: basicAuth('joe', 'joe-password') };
  const viewer = { authorization: basicAuth('viewer', 'viewer-password') };
  const role = (indices: unknown[]) => ({ cluster: ['manage_transform'], indices });
  const SOURCE_READ = { names: ['airline-data'], privileges: ['read', 'view_index_metadata'] };
  const OWNED_WRITE = { names: ['owned-*'], privileges: ['read', 'index', 'create_index'] };

  beforeAll(async () => {
    await http(node.url, 'PUT', '/_security/role/transform-owner', role([SOURCE_READ, OWNED_WRITE]));
    await http(node.url, 'PUT', '/_security/role/transform-viewer', { cluster: ['monitor_transform'] });
    await http(node.url, 'PUT', '/_security/user/joe', {
      password: 'joe-password',
      roles: ['transform-owner'],
    });
    await http(node.url, 'PUT', '/_security/user/viewer', {
      password: 'viewer-password',
      roles: ['transform-viewer'],
    });
  });

  it('puts a transform only over indices the user may read and write, and records who it runs as', async () => {
    const ok = await http(
      node.url,
      'PUT',
      '/_transform/joes',
      { ...PIVOT, dest: { index: 'owned-dest' } },
      joe,
    );
    expect(ok.json).toEqual({ acknowledged: true });
    const got = await http(node.url, 'GET', '/_transform/joes');
    expect(got.json.transforms[0].authorization).toEqual({ roles: ['transform-owner'] });

    const denied = await http(
      node.url,
      'PUT',
      '/_transform/joes-other',
      { ...PIVOT, dest: { index: 'other-dest' } },
      joe,
    );
    expect(denied.status).toBe(403);
    expect(denied.json.error.type).toBe('security_exception');
    expect(denied.json.error.reason).toBe(
      'Cannot create transform [joes-other] because user joe lacks all the required permissions for indices: [other-dest]',
    );

    // monitor_transform reads transforms, manage_transform is needed to change them.
    expect((await http(node.url, 'GET', '/_transform/joes/_stats', undefined, viewer)).status).toBe(200);
    const put = await http(
      node.url,
      'PUT',
      '/_transform/viewers',
      { ...PIVOT, dest: { index: 'owned-x' } },
      viewer,
    );
    expect(put.status).toBe(403);
  });

  it('runs as its creator: once the creator loses the destination, the transform fails and needs a force stop', async () => {
    await http(
      node.url,
      'PUT',
      '/_transform/joes-continuous',
      {
        ...PIVOT,
        dest: { index: 'owned-continuous' },
        frequency: '1h',
        sync: { time: { field: 'time', delay: '0s' } },
      },
      joe,
    );
    // Started by the superuser: it still runs with joe's privileges.
    expect((await http(node.url, 'POST', '/_transform/joes-continuous/_start')).status).toBe(200);
    const first = await waitForState('joes-continuous', /^started$/);
    expect(first.checkpointing.last.checkpoint).toBe(1);

    await http(node.url, 'PUT', '/_security/role/transform-owner', role([SOURCE_READ]));
    await http(node.url, 'POST', '/_transform/joes-continuous/_schedule_now');
    const failed = await waitForState('joes-continuous', /^failed$/);
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/lacks all the required permissions for indices: \[owned-continuous\]/);
    expect(failed.health.status).toBe('red');

    const restart = await http(node.url, 'POST', '/_transform/joes-continuous/_start');
    expect(restart.status).toBe(409);
    expect(restart.json.error.reason).toMatch(
      /Unable to start transform \[joes-continuous\] as it is in a failed state/,
    );
    const stop = await http(node.url, 'POST', '/_transform/joes-continuous/_stop');
    expect(stop.status).toBe(409);
    expect(stop.json.error.reason).toMatch(
      /Unable to stop transform \[joes-continuous\] as it is in a failed state/,
    );
    const del = await http(node.url, 'DELETE', '/_transform/joes-continuous');
    expect(del.status).toBe(409);
    expect(del.json.error.reason).toBe(
      'Cannot delete transform [joes-continuous] as the task is running. Stop the task first',
    );
    expect((await http(node.url, 'POST', '/_transform/joes-continuous/_stop?force=true')).json).toEqual({
      acknowledged: true,
    });
    expect((await waitForState('joes-continuous', /^stopped$/)).state).toBe('stopped');
  });
});
