/**
 * Regressions found by the BCF import fuzz (tests/fuzz/Bcf.fuzz.test.ts), minimal reproducers inline: a
 * package's author and assignee names, assignee and viewpoint counts and snapshot file names were stored as
 * read, past the bounds the comment API puts on the same values (a 100,000-character assignee, a snapshot
 * named '../../x.png'); and an unreadable bcf.version ended the import with a parser error (a 500).
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BcfError, importBcf } from '../../api/comments/bcf/importBcf';
import { objectIndex } from '../../api/comments/bcf/viewpoint';
import { FILE_NAME_MAX_LENGTH, MAX_ASSIGNEES, MAX_ATTACHMENTS } from '../../api/contract/comments';

const enc = (s: string) => new TextEncoder().encode(s);
const index = objectIndex([]);

/** A BCF 3.0 package of one topic whose Topic element holds `inner`, with `extra` files in its folder. */
function pkg(inner: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    'bcf.version': enc('<?xml version="1.0"?><Version VersionId="3.0"/>'),
    't1/markup.bcf': enc(
      `<?xml version="1.0"?><Markup><Topic Guid="t1" TopicType="Issue" TopicStatus="Open"><Title>T</Title>${inner}</Topic></Markup>`,
    ),
  };
  for (const [n, b] of Object.entries(extra)) files[`t1/${n}`] = b;
  return zipSync(files);
}

describe('BCF values past the comment bounds', () => {
  it('an author or assignee name longer than a user name is left out with a warning', () => {
    const long = `${'x'.repeat(100_000)}@yard.com`;
    const r = importBcf(
      pkg(
        `<CreationAuthor>${long}</CreationAuthor><AssignedTo>${long}</AssignedTo><AssignedTo>a@yard.com</AssignedTo>`,
      ),
      index,
    );
    expect(r.threads[0].author).toBe('unknown');
    expect(r.threads[0].assignees).toEqual(['a@yard.com']);
    expect(r.warnings.join('\n')).toMatch(/an assignee name of 100009 characters was left out/);
    expect(r.warnings.join('\n')).toMatch(/An author name of 100009 characters was read as unknown/);
  });

  it('more assignees than a thread may have are cut to the first ones, with a warning', () => {
    const many = Array.from({ length: MAX_ASSIGNEES + 5 }, (_, i) => `<AssignedTo>u${i}@yard.com</AssignedTo>`).join(
      '',
    );
    const r = importBcf(pkg(many), index);
    expect(r.threads[0].assignees).toHaveLength(MAX_ASSIGNEES);
    expect(r.threads[0].assignees[0]).toBe('u0@yard.com');
    expect(r.warnings.join('\n')).toMatch(
      new RegExp(`${MAX_ASSIGNEES + 5} assignees; the first ${MAX_ASSIGNEES} are kept`),
    );
  });

  it('a snapshot path keeps only its last part, at most FILE_NAME_MAX_LENGTH characters; viewpoints past MAX_ATTACHMENTS are cut', () => {
    const long = `${'n'.repeat(1000)}.png`;
    const vps = Array.from(
      { length: MAX_ATTACHMENTS + 3 },
      (_, i) =>
        `<ViewPoint Guid="v${i}"><Snapshot>${i === 0 ? '../../evil.png' : i === 1 ? long : 's.png'}</Snapshot></ViewPoint>`,
    ).join('');
    const png = new Uint8Array([137, 80, 78, 71]);
    const r = importBcf(
      pkg(`<Viewpoints>${vps}</Viewpoints>`, { '../../evil.png': png, [long]: png, 's.png': png }),
      index,
    );
    const names = r.threads[0].attachments.map((a) => a.fileName);
    expect(names).toHaveLength(MAX_ATTACHMENTS);
    expect(names[0]).toBe('evil.png');
    expect(names[1]).toHaveLength(FILE_NAME_MAX_LENGTH);
    expect(names[1].endsWith('.png')).toBe(true);
  });
});

describe('an unreadable bcf.version', () => {
  it.each([
    ['Start tag expected', 'not xml'],
    ['a stray character', '<Version VersionId="3.0"/>A<'],
  ])('is ignored with a warning, the topics are read (%s)', (_, text) => {
    const files = {
      'bcf.version': enc(text),
      't1/markup.bcf': enc('<Markup><Topic Guid="t1"><Title>T</Title></Topic></Markup>'),
    };
    const r = importBcf(zipSync(files), index);
    expect(r.threads.map((t) => t.message)).toEqual(['T']);
    expect(r.warnings).toContain('bcf.version is not readable XML and was ignored');
  });

  it('a package of no topic is still refused with a BcfError', () => {
    expect(() => importBcf(zipSync({ 'bcf.version': enc('<') }), index)).toThrow(BcfError);
  });
});
