// `npm start`: builds the UI when dist/ui is missing or older than ui/ sources (scripts/prepareUi.mjs), then
// runs the server (node --import tsx api/server.ts) with inherited stdio.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { prepareUi, root } from './prepareUi.mjs';

prepareUi();
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'api/server.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => server.kill(s));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
