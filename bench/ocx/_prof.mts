import { importOcxFile } from '../../engine/ocx/importFile';
const t = performance.now();
const r = await importOcxFile(process.argv[2]);
console.log(r.objects.length, performance.now() - t);
