/**
 * The layer rules of biome.json (docs/ARCHITECTURE.md "Layers") fail on a violation and name the rule: each case
 * writes one file into a scratch tree that carries the repository's own biome.json and runs the real linter on it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const biome = path.join(repoRoot, 'node_modules/.bin/biome');

/** [file in the tree, its source, the rule that must fire or null when the import is allowed]. */
const CASES: [string, string, string | null][] = [
  ['engine/scene/a.ts', "import { proxy } from 'valtio';\nexport const a = proxy({});", 'engine-no-ui-frameworks'],
  ['engine/scene/b.ts', "import * as Comlink from 'comlink';\nexport const b = Comlink;", 'engine-no-ui-frameworks'],
  ['engine/ocx/c.ts', "import { x } from '../../ui/stores/viewer';\nexport const c = x;", 'engine-no-app-layers'],
  ['engine/ocx/d.ts', "import { x } from '../../api/config';\nexport const d = x;", 'engine-no-app-layers'],
  [
    'engine/ocx/e.ts',
    "import { readFileSync } from 'node:fs';\nexport const e = readFileSync;",
    'browser-bundle-no-node',
  ],
  ['engine/ocx/f.ts', "import Piscina from 'piscina';\nexport const f = Piscina;", 'browser-bundle-no-node'],
  ['engine/ocx/g.ts', "import { x } from '../node/ocx/importFile';\nexport const g = x;", 'browser-bundle-no-node'],
  ['engine/scene/h.ts', 'export const h = () => document.body;', 'engine-no-dom'],
  ['engine/node/ocx/i.ts', "import { readFileSync } from 'node:fs';\nexport const i = readFileSync;", null],
  ['engine/node/ocx/j.ts', "import { x } from '../../../api/config';\nexport const j = x;", 'engine-no-app-layers'],
  ['ui/stores/k.ts', "import { x } from '../../api/routes/validate';\nexport const k = x;", 'ui-only-api-contract'],
  ['ui/stores/l.ts', "import { x } from '../../api/contract/auth';\nexport const l = x;", null],
  ['ui/stores/m.ts', "import { x } from '../api/client';\nexport const m = x;", null],
  ['ui/n.ts', "import { x } from '../engine/node/ocx/importFile';\nexport const n = x;", 'browser-bundle-no-node'],
  ['ui/views/o.tsx', "import { x } from '../../bench/run';\nexport const o = x;", 'product-no-bench-or-tests'],
  ['api/routes/p.ts', "import { x } from '../../ui/stores/auth';\nexport const p = x;", 'api-no-ui'],
  ['api/q.ts', "import { x } from '../tools/generator/index';\nexport const q = x;", null],
  ['api/contract/r.ts', "import { x } from '../config';\nexport const r = x;", 'contract-standalone'],
  [
    'api/contract/s.ts',
    "import type { FastifyRequest } from 'fastify';\nexport type S = FastifyRequest;",
    'browser-bundle-no-node',
  ],
  [
    'tools/generator/t.ts',
    "import { x } from '../../tests/support/sanity.test';\nexport const t = x;",
    'product-no-bench-or-tests',
  ],
];

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-layers-'));
  const config = JSON.parse(readFileSync(path.join(repoRoot, 'biome.json'), 'utf8'));
  config.vcs = { enabled: false };
  delete config.$schema;
  writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lints one file of the scratch tree; returns the rule names ([name]) the diagnostics carry, and the exit code. */
function lint(file: string, source: string): { rules: string[]; status: number | null } {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, source);
  const r = spawnSync(biome, ['lint', '--max-diagnostics=50', file], { cwd: dir, encoding: 'utf8' });
  rmSync(full);
  const text = `${r.stdout}${r.stderr}`;
  return { rules: [...text.matchAll(/\[([a-z-]+)\] /g)].map((m) => m[1]), status: r.status };
}

describe('layer rules', () => {
  it.each(CASES)('%s: %s → %s', (file, source, rule) => {
    const { rules, status } = lint(file, source);
    if (rule === null) {
      expect(rules).toEqual([]);
      expect(status).toBe(0);
    } else {
      expect(rules).toContain(rule);
      expect(status).not.toBe(0);
    }
  });
});
