/**
 * Writes the layer rules of docs/ARCHITECTURE.md "Layers" into biome.json's `overrides` (`node scripts/layerRules.mjs`).
 * Biome's noRestrictedImports matches the import's text, not the resolved file, so the rules are generated per
 * folder depth: from `ui/stores/x.ts` the real server is `../../api/**` while `../api/**` is the UI's own client.
 * Every message starts with the rule's name in brackets; tests/house/boundaries.rules.test.ts checks each rule.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const NODE = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'crypto',
  'stream',
  'zlib',
  'http',
  'https',
  'net',
  'url',
  'module',
  'events',
  'piscina',
  'better-sqlite3',
  'pg',
  'fastify',
  '@fastify/*',
  'kysely',
  'socket.io',
  'pngjs',
];
const FRAMEWORKS = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'valtio',
  'valtio/*',
  'comlink',
  'wouter',
  '@headlessui/*',
];
const APP_LAYERS = ['ui', 'api', 'workers', 'tools', 'bench', 'tests'];
const MESSAGES = {
  'engine-no-ui-frameworks':
    'engine/ is framework-free: no React, valtio, Comlink or router (the Comlink facade lives in workers/).',
  'engine-no-app-layers': 'engine/ imports nothing from ui/, api/, workers/, tools/, bench/ or tests/.',
  'browser-bundle-no-node':
    'code that the browser bundle includes (ui/, engine/ outside engine/node/, api/contract, the render worker) imports no Node-only module; Node-only engine code lives in engine/node/.',
  'product-no-bench-or-tests': 'the bench and the tests use the product, never the reverse.',
  'ui-only-api-contract': 'the UI may import from api/ only the shared contract (api/contract).',
  'api-no-ui': 'the server imports nothing from the UI.',
  'contract-standalone': 'api/contract is shared with the browser: it imports only valibot and itself.',
};
const DOM = Object.fromEntries(
  [
    'document',
    'window',
    'localStorage',
    'sessionStorage',
    'HTMLElement',
    'HTMLCanvasElement',
    'requestAnimationFrame',
  ].map((g) => [g, '[engine-no-dom] engine/ runs in a worker and in Node: no DOM globals.']),
);

const rule = (name, group) => ({ group, message: `[${name}] ${MESSAGES[name]}` });

/** The import patterns forbidden in `folder` for a file `depth` path segments below the repository root. */
function patterns(folder, depth) {
  const root = '../'.repeat(depth - 1);
  const layers = APP_LAYERS.map((l) => `${root}${l}/**`);
  const benchTests = [`${root}bench/**`, `${root}tests/**`];
  switch (folder) {
    case 'engine':
      return [
        rule('engine-no-ui-frameworks', FRAMEWORKS),
        rule('engine-no-app-layers', layers),
        rule('browser-bundle-no-node', [
          ...NODE,
          `${root}engine/node/**`,
          `${depth === 2 ? './' : '../'.repeat(depth - 2)}node/**`,
        ]),
      ];
    case 'engine/node':
      return [rule('engine-no-ui-frameworks', FRAMEWORKS), rule('engine-no-app-layers', layers)];
    case 'ui':
      return [
        rule('ui-only-api-contract', [`${root}api/**`, `!${root}api/contract`, `!${root}api/contract/**`]),
        rule('browser-bundle-no-node', [...NODE, `${root}engine/node/**`]),
        rule('product-no-bench-or-tests', benchTests),
      ];
    case 'api':
      return [rule('api-no-ui', [`${root}ui/**`]), rule('product-no-bench-or-tests', benchTests)];
    case 'api/contract':
      return [
        rule('contract-standalone', [
          '../**',
          ...['ui', 'engine', 'workers', 'tools', 'bench', 'tests'].map((l) => `${root}${l}/**`),
        ]),
        rule('browser-bundle-no-node', NODE),
      ];
    default:
      return [rule('product-no-bench-or-tests', benchTests)];
  }
}

/** [folder, its path prefix, the prefix's depth, excluded sub-folders, deepest nesting]. */
const FOLDERS = [
  ['engine', 'engine/', 1, ['engine/node/**'], 6],
  ['engine/node', 'engine/node/', 2, [], 5],
  ['ui', 'ui/', 1, [], 6],
  ['api', 'api/', 1, ['api/contract/**'], 6],
  ['api/contract', 'api/contract/', 2, [], 2],
  ['scripts', 'scripts/', 1, [], 4],
  ['tools', 'tools/', 1, [], 4],
];

const overrides = [];
for (const [folder, prefix, base, excludes, deepest] of FOLDERS) {
  for (let d = 1; d <= deepest; d++) {
    const depth = base + d;
    const style = { noRestrictedImports: { level: 'error', options: { patterns: patterns(folder, depth) } } };
    if (folder.startsWith('engine')) style.noRestrictedGlobals = { level: 'error', options: { deniedGlobals: DOM } };
    overrides.push({
      includes: [`${prefix}${'*/'.repeat(d - 1)}*`, ...excludes.map((e) => `!${e}`)],
      linter: { rules: { style } },
    });
  }
}
overrides.push({
  includes: ['workers/render.worker.ts'],
  linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns: patterns('ui', 2) } } } } },
});

const config = JSON.parse(readFileSync('biome.json', 'utf8'));
const kept = (config.overrides ?? []).filter((o) => !JSON.stringify(o).includes('noRestrictedImports'));
config.overrides = [...kept, ...overrides];
writeFileSync('biome.json', `${JSON.stringify(config, null, 2)}\n`);
