/**
 * `npm run import -- FILE [--name NAME] [--replace] [--description TEXT] [--cad-dir DIR] [--cad-components]`:
 * imports an OCX file into the server's DATA_DIR through the same conversion code (in this process), drawing
 * a progress bar on stderr. With the "CAD components" conversion option on (the administrator's setting, or
 * `--cad-components` for this import), the CAD files the model names are taken from DIR (default: the OCX
 * file's own directory) and converted into the revision's CAD components, as the server's upload dialog
 * does (application.md §4 "CAD upload dialog"). Exits 0 when the revision is ready, 1 with the message
 * otherwise, 2 on bad arguments.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../config';
import { ConversionManager } from '../conversion/ConversionManager';
import { inProcessRunner } from '../conversion/runners';
import { openDatabase } from '../db/database';
import { ProjectStore, normaliseProjectName, projectNameFromFile } from '../projects/ProjectStore';
import { openRevisionStorage } from '../storage/storageConfig';
import { AdminSettings } from '../settings/AdminSettings';
import { PROJECT_FILE_EXTENSIONS } from '../routes/projects';
import { ConversionStatus } from '../contract/common';
import { collectCadRefs, requiredCadFiles } from '../../engine/ocx/cadRefs';
import { inProcessCadAdder } from '../conversion/cadAdders';
import { CadWaits } from '../conversion/CadWaits';

const USAGE =
  'Usage: npm run import -- FILE [--name NAME] [--replace] [--description TEXT] [--cad-dir DIR] [--cad-components]';

/** The parsed command line. */
export interface ImportArgs {
  file: string;
  name?: string;
  replace: boolean;
  description: string;
  /** Where the model's CAD files are (default: FILE's directory). */
  cadDir?: string;
  /** Converts CAD components for this import even when the administrator's option is off. */
  cadComponents: boolean;
}

/** Parsed command line. @throws Error with the usage for unknown or incomplete options. */
export function parseArgs(argv: string[]): ImportArgs {
  let file: string | undefined,
    name: string | undefined,
    cadDir: string | undefined,
    description = '',
    replace = false,
    cadComponents = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--name' || a === '--description' || a === '--cad-dir') {
      const val = argv[++i];
      if (val === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      if (a === '--name') name = val;
      else if (a === '--cad-dir') cadDir = val;
      else description = val;
    } else if (a === '--replace') replace = true;
    else if (a === '--cad-components') cadComponents = true;
    else if (a.startsWith('--')) throw new Error(`Unknown option ${a}\n${USAGE}`);
    else if (file === undefined) file = a;
    else throw new Error(`Only one FILE may be given\n${USAGE}`);
  }
  if (!file) throw new Error(`FILE is required\n${USAGE}`);
  return { file, name, replace, description, cadDir, cadComponents };
}

/**
 * Copies the CAD files `ocxFile` names from `from` into the project's CAD directory `to` (a file already
 * there is replaced, as an upload with overwrite does). @returns the names found and those missing in `from`.
 */
export async function gatherCadFiles(
  ocxFile: string,
  from: string,
  to: string,
): Promise<{ found: string[]; missing: string[] }> {
  const scan = await collectCadRefs(createReadStream(ocxFile, { highWaterMark: 256 * 1024 }));
  const found: string[] = [];
  const missing: string[] = [];
  for (const f of requiredCadFiles(scan.refs)) {
    // Only plain file names: a reference must not reach outside `from`.
    const src = path.join(from, path.basename(f.fileName));
    if (path.basename(f.fileName) !== f.fileName || !existsSync(src)) {
      missing.push(f.fileName);
      continue;
    }
    await mkdir(to, { recursive: true, mode: 0o700 });
    await copyFile(src, path.join(to, f.fileName));
    found.push(f.fileName);
  }
  return { found, missing };
}

/** A text progress bar: `[██████░░░░]  60.0 % message`. */
export function progressBar(percent: number, message: string, width = 30): string {
  const p = Math.max(0, Math.min(100, percent));
  const full = Math.round((p / 100) * width);
  return `[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${p.toFixed(1).padStart(5)} % ${message}`.slice(0, 120);
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const file = path.resolve(args.file);
  if (!existsSync(file)) {
    console.error(`File not found: ${file}`);
    return 1;
  }
  const ext = path.extname(file).toLowerCase();
  if (!PROJECT_FILE_EXTENSIONS.includes(ext)) {
    console.error(`Unsupported file type "${ext}": expected .3docx, .ocx or .xml`);
    return 1;
  }
  const config = loadConfig();
  let name: string;
  try {
    name = args.name ? normaliseProjectName(args.name) : projectNameFromFile(file);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const storage = await openRevisionStorage(config.storage, config.dataDir);
  const db = await openDatabase(config.dataDir, config.database);
  const projects = new ProjectStore(db, config.dataDir, storage);
  // the administrator's conversion options hold for the CLI too (README "Conversion options")
  const settings = new AdminSettings(db);
  const options = async () => {
    const base = await settings.conversion();
    return args.cadComponents ? { ...base, cadComponents: true } : base;
  };
  const cad = { waits: new CadWaits((n) => projects.cadDir(n)), adder: inProcessCadAdder() };
  const conversions = new ConversionManager(db, projects, inProcessRunner(), options, cad);
  if ((await options()).cadComponents) {
    const from = path.resolve(args.cadDir ?? path.dirname(file));
    const { found, missing } = await gatherCadFiles(file, from, projects.cadDir(name));
    if (found.length + missing.length > 0)
      console.error(
        `CAD files from ${from}: ${found.length} found${missing.length ? `, missing: ${missing.join(', ')}` : ''}`,
      );
  }
  const tty = process.stderr.isTTY;
  let lastLine = '';
  conversions.onProgress((e) => {
    const line = progressBar(e.progress, e.message);
    if (line === lastLine) return;
    lastLine = line;
    process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  });
  try {
    const id = await conversions.reserve(name, 'cli');
    const uploads = path.join(config.dataDir, 'uploads');
    await mkdir(uploads, { recursive: true, mode: 0o700 });
    const stored = path.join(uploads, `${randomUUID()}-${path.basename(file).replace(/[^\w.-]/g, '_')}`);
    await copyFile(file, stored);
    conversions.start(id, {
      input: stored,
      description: args.description,
      replace: args.replace,
      deleteInputOnFailure: true,
    });
    const final = await conversions.wait(id);
    if (tty) process.stderr.write('\n');
    if (final.status === ConversionStatus.Ready) {
      const rev = await projects.revision(name, 'latest');
      const where =
        config.storage.kind === 's3'
          ? `bucket ${config.storage.bucket} as ${rev.dir}`
          : path.join(config.dataDir, rev.dir);
      console.log(`Project ${name} revision ${rev.number} is ready in ${where}`);
      return 0;
    }
    console.error(final.message);
    return 1;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    await conversions.close();
    await db.destroy();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().then((code) => process.exit(code));
}
