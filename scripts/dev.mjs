// `npm run dev`: the API server (restarted on change by node --watch) on PORT (8080) and Vite's dev server
// for the UI on 5173, which proxies /api and socket.io to the API (vite.config.ts). Ctrl+C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'api/server.ts'], { stdio: 'inherit', env: process.env }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--host', '127.0.0.1'], {
    stdio: 'inherit',
    env: process.env,
  }),
];
const stop = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
