/**
 * CLI of the ship generator: `npm run generate -- --out FILE [--parts N] [--seed S] [--name NAME] [--dialect NAME]`.
 * Writes a valid OCX file (3.1.0, or the dialect's schema, tools/generator/dialects.ts) and prints its counts per type.
 */
import { DIALECTS } from './dialects';
import { writeShipOcx } from './generateShip';

function parseArgs(argv: string[]): { out: string; parts?: number; seed?: number; name?: string; dialect?: string } {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`Unexpected argument "${a}"`);
    const [key, inline] = a.slice(2).split('=', 2);
    if (!['out', 'parts', 'seed', 'name', 'dialect'].includes(key)) throw new Error(`Unknown option --${key}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`Option --${key} needs a value`);
    args[key] = value;
  }
  if (!args.out) throw new Error('Missing --out FILE');
  const int = (k: string) => {
    if (args[k] === undefined) return undefined;
    const n = Number(args[k]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${k} must be a non-negative integer, got "${args[k]}"`);
    return n;
  };
  if (args.dialect !== undefined && !DIALECTS[args.dialect])
    throw new Error(`Unknown --dialect "${args.dialect}"; known: ${Object.keys(DIALECTS).join(', ')}`);
  return { out: args.out, parts: int('parts'), seed: int('seed'), name: args.name, dialect: args.dialect };
}

try {
  const a = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const stats = await writeShipOcx(a.out, { targetParts: a.parts, seed: a.seed, name: a.name, dialect: a.dialect });
  console.log(
    `Wrote ${a.out}: ${stats.parts} parts (${stats.plates} plates, ${stats.stiffeners} stiffeners, ${stats.brackets} brackets) in ${stats.panels} panels, ${stats.frames} frames, ${stats.lengthM.toFixed(1)} m, ${(stats.bytes / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (e) {
  console.error(`generate: ${(e as Error).message}`);
  console.error(
    'usage: npm run generate -- --out FILE [--parts N] [--seed S] [--name NAME] [--dialect ' +
      Object.keys(DIALECTS).join('|') +
      ']',
  );
  process.exit(1);
}
