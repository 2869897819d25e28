/**
 * `npm run import -- FILE [--name NAME] [--replace]`: imports an OCX file into
 * the server's DATA_DIR through the same conversion code (in this process), drawing a progress bar on
 * stderr. Exits 0 when the revision is ready, 1 with the message otherwise, 2 on bad arguments.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../config';
import { ConversionManager } from '../conversion/ConversionManager';
import { inProcessRunner } from '../conversion/runners';
import { openDatabase } from '../db/database';
import { ProjectStore, normaliseProjectName, projectNameFromFile } from '../projects/ProjectStore';
import { AdminSettings } from '../settings/AdminSettings';
import { PROJECT_FILE_EXTENSIONS } from '../routes/projects';
import { ConversionStatus } from '../contract/common';

const USAGE = 'Usage: npm run import -- FILE [--name NAME] [--replace] [--description TEXT]';

/** Parsed command line. @throws Error with the usage for unknown or incomplete options. */
export function parseArgs(argv: string[]): { file: string; name?: string; replace: boolean; description: string } {
  let file: string | undefined,
    name: string | undefined,
    description = '',
    replace = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--name' || a === '--description') {
      const val = argv[++i];
      if (val === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      if (a === '--name') name = val;
      else description = val;
    } else if (a === '--replace') replace = true;
    else if (a.startsWith('--')) throw new Error(`Unknown option ${a}\n${USAGE}`);
    else if (file === undefined) file = a;
    else throw new Error(`Only one FILE may be given\n${USAGE}`);
  }
  if (!file) throw new Error(`FILE is required\n${USAGE}`);
  return { file, name, replace, description };
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
  const db = await openDatabase(config.dataDir, config.database);
  const projects = new ProjectStore(db, config.dataDir);
  // the administrator's conversion options hold for the CLI too (README "Conversion options")
  const settings = new AdminSettings(db);
  const conversions = new ConversionManager(db, projects, inProcessRunner(), () => settings.conversion());
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
      console.log(`Project ${name} revision ${rev.number} is ready in ${path.join(config.dataDir, rev.dir)}`);
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
