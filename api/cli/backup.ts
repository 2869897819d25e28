/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (`keelson backup` / `keelson restore`): back up
 * the server of this environment (DATA_DIR, DATABASE_URL) into one archive, or restore one into an empty
 * data directory and database (api/cli/backupArchive.ts). Exits 0 on success, 1 with the message on a
 * failure, 2 on bad arguments.
 */
import path from 'node:path';
import { loadConfig } from '../config';
import { backup, restore } from './backupArchive';

const USAGE = 'Usage: npm run backup -- FILE.tar.gz | npm run restore -- FILE.tar.gz';

/** Runs `backup FILE` or `restore FILE`; @returns the exit code. */
export async function main(argv = process.argv.slice(2)): Promise<number> {
  const [command, file, ...rest] = argv;
  if ((command !== 'backup' && command !== 'restore') || !file || file.startsWith('--') || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    // No secret needed: without the override loadConfig would write DATA_DIR/jwt-secret into the empty target.
    const config = loadConfig(process.env, { jwtSecret: 'not-used-by-backup' });
    if (command === 'backup') {
      const m = await backup(config, file);
      console.log(`Backed up the ${m.database} database and ${config.dataDir} into ${path.resolve(file)}`);
    } else {
      const m = await restore(config, file);
      console.log(`Restored the ${m.database} backup of ${m.createdAt} into ${config.dataDir}`);
    }
    return 0;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().then((code) => process.exit(code));
}
