import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '../load-sample.ts';
import { flights } from '../sample-data/index.ts';
import { readFileSync } from 'node:fs';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const require = createRequire(import.meta.url);
async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, url), { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { text, json: JSON.parse(text) };
}
const child = spawn(process.execPath, ['--import', require.resolve('tsx'), 'packages/coordinator/src/main.ts', '--config', 'cluster.config.json', '--http-port', '0', '--data-path', mkdtempSync(join(tmpdir(), 'prof-')), '--workers', '2'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SHOAL_LOG_LEVEL: 'info' } });
const url = await new Promise<string>((res) => createInterface({ input: child.stdout! }).on('line', (l) => { try { const e = JSON.parse(l); if (e.url && String(e.msg).includes('started')) res(e.url); } catch {} }));
await loadDataset({ url, dataset: flights, shards: 2, batch: 5000, concurrency: 2 });
for (const body of [{ size: 1000, sort: ['_doc'], _source: false }, { size: 1000, sort: ['_doc'] }]) {
  const t0 = Date.now();
  const c0 = cpu(child.pid!);
  let clientMs = 0;
  let r = await call(url, 'POST', `/flights/_search?scroll=1m`, body);
  for (;;) {
    const a = performance.now();
    r = await call(url, 'POST', `/_search/scroll`, { scroll_id: r.json._scroll_id, scroll: '1m' });
    clientMs += performance.now() - a;
    if (r.json.hits.hits.length === 0) break;
  }
  console.log('export', Date.now() - t0, 'ms; per page', (clientMs / 200).toFixed(2), 'server cpu ms', cpu(child.pid!) - c0);
}
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
