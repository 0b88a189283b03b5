/**
 * `npm run bench -- auth`: what security costs a search. Two nodes hold the same documents, one
 * with security on and one with it off (`xpack.security.enabled=false`); the same search is
 * sent to both, in interleaved rounds, with the same `Authorization: Basic` header (the node
 * with security off ignores it, so both read the same bytes), and to the secured node with an
 * `ApiKey` header, a service account's `Bearer` token and an OAuth2 access token (`Bearer`, from
 * `POST /_security/oauth2/token`). Each round's ratio compares two
 * runs seconds apart; the table prints the median ratio (target ≥ 0.9).
 */
import { withAuth } from '../credentials.ts';
import { type LoadOptions, type LoadTarget, type Measurement, measure } from './measure.ts';
import { type BenchChild, startShoalNode } from './processes.ts';
import { fixed, int, medianRatio, printTable, writeResults } from './report.ts';

const WORKERS = 1;
const DOCS = 20_000;
const ROUNDS = 3;
/** A name `elastic/fleet-server` may read (`profiling-*`), so the Bearer row searches it too. */
const INDEX = 'profiling-auth-bench';
const SEARCH = JSON.stringify({ query: { match: { title: 'alpha' } }, size: 10 });
const WORDS = ['alpha', 'beta', 'gamma', 'delta'];

async function load(node: BenchChild): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _id: String(i) } }));
    lines.push(JSON.stringify({ title: `document ${i} ${WORDS[i % WORDS.length]}`, n: i }));
  }
  const res = await fetch(new URL(`/${INDEX}/_bulk?refresh=true`, node.url), {
    method: 'POST',
    headers: withAuth({ 'content-type': 'application/x-ndjson' }),
    body: `${lines.join('\n')}\n`,
  });
  const body = (await res.json()) as { errors?: boolean };
  if (res.status !== 200 || body.errors) throw new Error(`loading ${node.name} failed: ${res.status}`);
}

function target(node: BenchChild, authorization?: string): LoadTarget {
  const t: LoadTarget = {
    url: node.url,
    method: 'POST',
    path: `/${INDEX}/_search`,
    body: SEARCH,
    pid: node.pid,
  };
  if (authorization !== undefined) t.authorization = authorization;
  return t;
}

/** A token of the `elastic/fleet-server` service account, as its `Bearer` header. */
async function serviceToken(node: BenchChild): Promise<string> {
  const res = await fetch(
    new URL('/_security/service/elastic/fleet-server/credential/token/bench', node.url),
    {
      method: 'POST',
      headers: withAuth(),
    },
  );
  const body = (await res.json()) as { token?: { value?: string } };
  if (res.status !== 200 || !body.token?.value)
    throw new Error(`creating a service token failed: ${res.status}`);
  return `Bearer ${body.token.value}`;
}

/** An API key of the `elastic` user, as its `ApiKey` header. */
async function apiKey(node: BenchChild): Promise<string> {
  const res = await fetch(new URL('/_security/api_key', node.url), {
    method: 'POST',
    headers: withAuth({ 'content-type': 'application/json' }),
    body: JSON.stringify({ name: 'bench' }),
  });
  const body = (await res.json()) as { encoded?: string };
  if (res.status !== 200 || !body.encoded) throw new Error(`creating an API key failed: ${res.status}`);
  return `ApiKey ${body.encoded}`;
}

/** An access token of the `elastic` user (client_credentials grant), as its `Bearer` header. */
async function accessToken(node: BenchChild): Promise<string> {
  const res = await fetch(new URL('/_security/oauth2/token', node.url), {
    method: 'POST',
    headers: withAuth({ 'content-type': 'application/json' }),
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token)
    throw new Error(`getting an access token failed: ${res.status}`);
  return `Bearer ${body.access_token}`;
}

export async function runAuth(opts: LoadOptions): Promise<void> {
  // Access tokens last at most an hour: longer than any run of this benchmark.
  const on = await startShoalNode({
    workers: WORKERS,
    args: ['-E', 'xpack.security.authc.token.enabled=true', '-E', 'xpack.security.authc.token.timeout=1h'],
  });
  const off = await startShoalNode({ workers: WORKERS, env: { 'xpack.security.enabled': 'false' } });
  try {
    await load(on);
    await load(off);
    const key = await apiKey(on);
    const token = await serviceToken(on);
    const oauth = await accessToken(on);
    const basic: Measurement[] = [];
    const oauthed: Measurement[] = [];
    const keyed: Measurement[] = [];
    const bearer: Measurement[] = [];
    const baseline: Measurement[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so none always follows another's warm caches.
      const runs = [
        async () => baseline.push(await measure(target(off), opts)),
        async () => basic.push(await measure(target(on), opts)),
        async () => keyed.push(await measure(target(on, key), opts)),
        async () => bearer.push(await measure(target(on, token), opts)),
        async () => oauthed.push(await measure(target(on, oauth), opts)),
      ];
      for (const run of round % 2 === 0 ? runs : runs.reverse()) await run();
    }
    const median = (ms: Measurement[]) =>
      [...ms].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(ms.length / 2)]!;
    const ratio = medianRatio(
      basic.map((m) => m.reqPerSec),
      baseline.map((m) => m.reqPerSec),
    );
    const keyRatio = medianRatio(
      keyed.map((m) => m.reqPerSec),
      baseline.map((m) => m.reqPerSec),
    );
    const bearerRatio = medianRatio(
      bearer.map((m) => m.reqPerSec),
      baseline.map((m) => m.reqPerSec),
    );
    const oauthRatio = medianRatio(
      oauthed.map((m) => m.reqPerSec),
      baseline.map((m) => m.reqPerSec),
    );
    const bad = [...basic, ...keyed, ...bearer, ...oauthed, ...baseline].reduce(
      (n, m) => n + m.non2xx + m.errors,
      0,
    );
    if (bad > 0) throw new Error(`${bad} searches failed: the measurement is not valid`);
    printTable(
      ['search', 'req/s', 'p99 µs', 'main-thread µs/req', 'ratio to security off'],
      [
        [
          'security off',
          int(median(baseline).reqPerSec),
          int(median(baseline).p99Us),
          fixed(median(baseline).mainThreadCpuUsPerReq, 1),
          '1.00',
        ],
        [
          'Basic',
          int(median(basic).reqPerSec),
          int(median(basic).p99Us),
          fixed(median(basic).mainThreadCpuUsPerReq, 1),
          fixed(ratio),
        ],
        [
          'ApiKey',
          int(median(keyed).reqPerSec),
          int(median(keyed).p99Us),
          fixed(median(keyed).mainThreadCpuUsPerReq, 1),
          fixed(keyRatio),
        ],
        [
          'Bearer',
          int(median(bearer).reqPerSec),
          int(median(bearer).p99Us),
          fixed(median(bearer).mainThreadCpuUsPerReq, 1),
          fixed(bearerRatio),
        ],
        [
          'Bearer (access token)',
          int(median(oauthed).reqPerSec),
          int(median(oauthed).p99Us),
          fixed(median(oauthed).mainThreadCpuUsPerReq, 1),
          fixed(oauthRatio),
        ],
      ],
    );
    const met = (r: number | undefined) => (r !== undefined && r >= 0.9 ? 'met' : 'NOT met');
    console.log(
      `target: ≥ 0.90 of security off; Basic ${met(ratio)}, ApiKey ${met(keyRatio)}, Bearer ${met(bearerRatio)}, access token ${met(oauthRatio)}`,
    );
    const file = writeResults('auth', {
      rounds: ROUNDS,
      basic,
      keyed,
      bearer,
      baseline,
      ratio,
      keyRatio,
      bearerRatio,
      oauthed,
      oauthRatio,
    });
    console.log(`results: ${file}`);
  } finally {
    await on.stop();
    await off.stop();
  }
}
