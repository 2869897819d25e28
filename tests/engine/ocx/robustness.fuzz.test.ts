/**
 * Schema 3.0 / 3.0rc / 3.1 namespaces, BOM, CRLF, unknown elements counted by name,
 * DOCTYPE entities refused, dangling references and absurd coordinates skipped part by part with a
 * message naming the part and the line; and a fast-check fuzz: random truncations and garbage either
 * import or throw OcxImportError, never anything else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importOcx, OcxImportError } from '../../../engine/ocx/index';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const M3 = readFileSync(path.join(DIR, 'NAPA-OCX_M3.3docx'), 'utf8').replace(/^\uFEFF/, '');
const V300 = 'https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd';

async function* chunks(text: string, size = 8192): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
const run = (text: string) => importOcx(chunks(text));

describe('accepted variants', () => {
  it.each([
    ['3.1', 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd'],
    ['3.0rc3', 'https://3docx.org/fileadmin//ocx_schema//V300rc3//OCX_Schema.xsd'],
    ['3.0rc5', 'https://3docx.org/fileadmin//ocx_schema//V300rc5//OCX_Schema.xsd'],
  ])('schema %s namespace', async (_, ns) => {
    const r = await run(M3.split(V300).join(ns));
    expect(r.objects.filter((o) => o.element === 'Stiffener')).toHaveLength(7);
  });

  it('BOM and CRLF give the same model as the plain file', async () => {
    const plain = await run(M3);
    const crlf = await run(`\uFEFF${M3.replace(/\r?\n/g, '\r\n')}`);
    expect(crlf.objects.map((o) => o.id)).toEqual(plain.objects.map((o) => o.id));
    expect(crlf.fidelity!.map((f) => f.weightDevPct)).toEqual(plain.fidelity!.map((f) => f.weightDevPct));
  });

  it('unknown elements become warnings counted by element name and the import goes on', async () => {
    const text = M3.replace(
      '<ocx:PhysicalProperties>',
      '<ocx:Gizmo a="1"/><ocx:Gizmo/><ocx:PhysicalProperties>',
    ).replace('</ocx:Vessel>', '<ocx:Member id="a1"/></ocx:Vessel>');
    const r = await run(text);
    expect(r.unsupportedElements).toEqual({ Gizmo: 2, Member: 1 });
    expect(
      r.warnings
        .filter((w) => w.code === 'unsupported-element')
        .map((w) => w.message)
        .sort(),
    ).toEqual([
      '1 × <Member> not supported by the importer; ignored',
      '2 × <Gizmo> not supported by the importer; ignored',
    ]);
    expect(r.objects.filter((o) => o.element === 'Stiffener')).toHaveLength(7);
    expect((await run(M3)).unsupportedElements).toBeUndefined();
  });
});

describe('refused or skipped input', () => {
  it('refuses a DOCTYPE with entities (entity expansion)', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n<ocx:ocxXML xmlns:ocx="${V300}">&lol2;</ocx:ocxXML>`;
    await expect(run(bomb)).rejects.toThrow(/entities/);
  });

  it('skips a part with a dangling section reference, naming the part and the line', async () => {
    const r = await run(M3.replace('<ocx:SectionRef localRef="nplcid6"', '<ocx:SectionRef localRef="nowhere"'));
    const w = r.warnings.find((x) => x.code === 'geometry-failed')!;
    expect(w.message).toMatch(/^Stiffener nplcid\d+: section "nowhere" not in the catalogue \(line \d+\)$/);
    expect(r.meshes.length).toBe((await run(M3)).meshes.length - 1);
  });

  it.each([['NaN'], ['Infinity'], ['1e300']])(
    'skips a part whose coordinates are %s, naming part and line',
    async (bad) => {
      const text = M3.replace(
        '<ocx:StartPoint coordinates="0 1 0" unit="Um" />',
        `<ocx:StartPoint coordinates="${bad} 1 0" unit="Um" />`,
      );
      const r = await run(text);
      const w = r.warnings.filter((x) => x.part === 'nplcid17');
      expect(w.length).toBeGreaterThan(0);
      expect(w.map((x) => x.message).join('\n')).toMatch(/line \d+/);
      expect(r.meshes.find((m) => r.objects[m.object].id === 'nplcid17')).toBeUndefined();
      for (const m of r.meshes) for (const v of m.positions) expect(Math.abs(v)).toBeLessThan(1e10);
    },
  );
});

describe('fuzz: truncations and garbage', () => {
  it('either imports or throws OcxImportError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: M3.length }),
        fc.integer({ min: 0, max: M3.length }),
        fc.string({ maxLength: 40 }),
        fc.boolean(),
        async (cut, at, garbage, truncate) => {
          const text = truncate ? M3.slice(0, cut) : M3.slice(0, at) + garbage + M3.slice(at);
          try {
            const r = await run(text);
            expect(Array.isArray(r.objects)).toBe(true);
          } catch (e) {
            if (!(e instanceof OcxImportError)) throw new Error(`not an OcxImportError: ${(e as Error)?.stack ?? e}`);
          }
        },
      ),
      { numRuns: 60, seed: 3 },
    );
  });
});
