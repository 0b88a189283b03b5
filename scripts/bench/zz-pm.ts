import { ShardWorker } from '@shoal/shard';
const w = new ShardWorker(0);
await w.run({ t: 'noop' });
const sab = new SharedArrayBuffer(4);
for (const [name, mk] of [
  ['noop', () => ({ t: 'noop' })],
  ['noop+sab', () => ({ t: 'noop', cancel: new SharedArrayBuffer(4) })],
  ['noop+samesab', () => ({ t: 'noop', cancel: sab })],
  ['noop+docs', () => ({ t: 'noop', docs: Array.from({ length: 500 }, (_, i) => i) })],
] as const) {
  for (let i = 0; i < 200; i++) await w.run(mk() as never);
  const t = process.hrtime.bigint();
  for (let i = 0; i < 2000; i++) await w.run(mk() as never);
  console.log(name, Number(process.hrtime.bigint() - t) / 2000 / 1000, 'us/roundtrip');
}
await w.close();
