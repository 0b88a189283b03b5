/**
 * Reindexes from the command line, with a progress bar:
 *
 *   npm run reindex -- --from SOURCE --to DEST [--url http://127.0.0.1:9200] [--slices auto]
 *                      [--query '{"term":{"tag":"x"}}'] [--size 1000] [--requests-per-second N]
 *
 * Starts `POST /_reindex?wait_for_completion=false`, follows the task with `GET /_tasks/{id}`
 * until it completes, and prints the final counts (or the failures). Ctrl-C cancels the task.
 * Signs in as `SHOAL_USER`/`SHOAL_PASSWORD`, or as `elastic` with `ELASTIC_PASSWORD`.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { basicAuthorization, withAuth } from './credentials.ts';

const usage =
  'usage: npm run reindex -- --from SOURCE --to DEST [--url URL] [--slices N|auto] [--query JSON] [--size N] [--requests-per-second N]';

/** `SHOAL_USER`/`SHOAL_PASSWORD` when given, else the `elastic` user as the other scripts sign in. */
function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = json ? { 'content-type': 'application/json' } : {};
  const user = process.env.SHOAL_USER;
  if (user) return { ...h, authorization: basicAuthorization(user, process.env.SHOAL_PASSWORD ?? '') };
  return withAuth(h);
}

// biome-ignore lint/suspicious/noExplicitAny: the script reads arbitrary response shapes
type Json = Record<string, any>;

async function call(url: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (res.status >= 400)
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json.error ?? json)}`);
  return json;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:9200' },
      from: { type: 'string' },
      to: { type: 'string' },
      slices: { type: 'string', default: '1' },
      query: { type: 'string' },
      size: { type: 'string', default: '1000' },
      'requests-per-second': { type: 'string' },
    },
  });
  if (!values.from || !values.to) throw new Error(usage);
  const source: Record<string, unknown> = { index: values.from, size: Number(values.size) };
  if (values.query) source.query = JSON.parse(values.query);
  const params = new URLSearchParams({ wait_for_completion: 'false', slices: values.slices! });
  if (values['requests-per-second']) params.set('requests_per_second', values['requests-per-second']);
  const started = await call(values.url!, 'POST', `/_reindex?${params}`, {
    source,
    dest: { index: values.to },
  });
  const task = started.task as string;
  console.log(`reindexing [${values.from}] into [${values.to}] as task ${task}`);
  process.once('SIGINT', () => {
    void call(values.url!, 'POST', `/_tasks/${task}/_cancel`).finally(() => console.log('\ncancelled'));
  });
  const bar = new cliProgress.SingleBar(
    { format: ' {bar} {percentage}% | {value}/{total} docs | {eta_formatted} left', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let barStarted = false;
  for (;;) {
    const t = await call(values.url!, 'GET', `/_tasks/${task}`);
    const status = t.task?.status ?? {};
    const done =
      (status.created ?? 0) + (status.updated ?? 0) + (status.version_conflicts ?? 0) + (status.noops ?? 0);
    if (!barStarted && status.total !== undefined) {
      bar.start(status.total, done);
      barStarted = true;
    } else if (barStarted) {
      bar.setTotal(status.total ?? 0);
      bar.update(done);
    }
    if (t.completed) {
      if (barStarted) bar.stop();
      if (t.error) throw new Error(`the reindex failed: ${JSON.stringify(t.error)}`);
      const r = t.response;
      console.log(
        `done in ${(r.took / 1000).toFixed(1)} s: ${r.created} created, ${r.updated} updated, ${r.version_conflicts} version conflicts, ${r.batches} batches`,
      );
      if (r.failures.length > 0) {
        console.log(`failures: ${JSON.stringify(r.failures.slice(0, 5), null, 2)}`);
        process.exitCode = 1;
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
