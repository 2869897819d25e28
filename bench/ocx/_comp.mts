import { importOcxFile } from '../../engine/ocx/importFile';
const r = await importOcxFile(process.argv[2]);
let n = 0;
for (const o of r.objects) if (o.type === 'COMPARTMENT' || o.type === 'COMPARTMENT ARRANGEMENT') {
  const p = r.properties[o.index];
  if (n++ < 30) console.log(o.type, o.id, o.parent, p.NAME, p.PURP, p.TGH, (p.VOLM as number)?.toFixed(3), (p.VOLM_GEOM as number)?.toFixed(3), [p.XCG, p.YCG, p.ZCG].map((v) => (v as number)?.toFixed(3)).join(' '), [p.XCG_GEOM, p.YCG_GEOM, p.ZCG_GEOM].map((v) => (v as number)?.toFixed(3)).join(' '), p.frames);
}
console.log(r.warnings.filter(w => !/plate-method/.test(w.code)).slice(0, 10));
