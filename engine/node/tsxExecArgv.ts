/**
 * Node-only: the execArgv of worker threads whose entry is a TypeScript module (piscina pools of
 * api/conversion/runners.ts and engine/node/ocx/partPool.ts): the process's own, plus `--import tsx`
 * unless the process already loads it (`node --import tsx`), so the thread can import `.ts` files.
 */
export function tsxExecArgv(): string[] {
  const argv = process.execArgv;
  const hasTsx = argv.some((a, i) => a.includes('tsx') && (a.startsWith('--import') || argv[i - 1] === '--import'));
  return hasTsx ? argv : [...argv, '--import', 'tsx'];
}
