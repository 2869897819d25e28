import { writeShipOcx } from '../generator/index';
console.log(await writeShipOcx(process.argv[2], { targetParts: Number(process.argv[3]), seed: 1 }));
