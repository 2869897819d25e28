import { createReadStream, statSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { importOcxFile } from '/work/main/engine/ocx/importFile';
import { writeShipOcx } from '/tmp/g2/gen/index';
const files = process.argv.slice(2);
async function bare(f: string) {
  const p = new SaxesParser({ xmlns: true, position: true });
  let n = 0; p.on('opentag', () => n++);
  const dec = new TextDecoder();
  for await (const c of createReadStream(f, { highWaterMark: 256 * 1024 })) p.write(dec.decode(c as Uint8Array, { stream: true }));
  p.close(); return n;
}
for (let f of files) {
  if (f.startsWith('gen:')) { const n = Number(f.slice(4)); const out = `/tmp/g2/gen${n}.3docx`; const t=performance.now(); const st = await writeShipOcx(out, { targetParts: n, seed: 1 }); console.log('gen', n, JSON.stringify(st).slice(0,200), (performance.now()-t).toFixed(0),'ms'); f = out; }
  const mb = statSync(f).size / 1e6;
  let t = performance.now(); await bare(f); const tb = performance.now() - t;
  t = performance.now(); const r = await importOcxFile(f); const ti = performance.now() - t;
  console.log(f.split('/').pop(), mb.toFixed(2), 'MB bare', (mb / tb * 1000).toFixed(1), 'MB/s import', (mb / ti * 1000).toFixed(1), 'MB/s', r.objects.length, 'objs', ti.toFixed(0), 'ms');
}
