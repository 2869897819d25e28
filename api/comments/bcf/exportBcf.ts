/**
 * Writes review threads as a BCF-XML package (buildingSMART BCF 3.0 by default, or 2.1): bcf.version,
 * extensions.xml (3.0: the statuses, labels and users in use), and per thread a folder named by its id with
 * markup.bcf, one viewpoint-{id}.bcfv per VIEW attachment with a camera and its snapshot-{id}.png|jpg.
 *
 * Mapping (Keelson → BCF): thread → Topic (Guid = thread id, TopicType 'Issue', TopicStatus = state name,
 * Title = the message's first line, Description = the whole message, Labels, CreationDate/Author,
 * ModifiedDate, AssignedTo = the first assignee — BCF has one); replies and state-change messages →
 * Comments (with the reply's first VIEW attachment as its Viewpoint); VIEW attachments → viewpoints (see
 * viewpoint.ts). Not carried by BCF: FILE attachments, further assignees, reply labels, the marker
 * location, the workplane, the revision number.
 */
import { zipSync } from 'fflate';
import { COMMENT_STATES, type Attachment, type Comment } from '../../contract/comments';
import { type BcfVersion, type ObjectIndex, viewToVisInfo } from './viewpoint';
import { buildXml, type XmlNode } from './xml';

/** Longest Title written, characters (the whole message is the Description). */
export const TITLE_MAX_LENGTH = 200;

/** The Title of a message: its first non-empty line, shortened to TITLE_MAX_LENGTH. */
export function titleOf(message: string): string {
  const line = message.split('\n').find((l) => l.trim() !== '') ?? message;
  return line.trim().slice(0, TITLE_MAX_LENGTH);
}

/** The snapshot extension of an image attachment ('png' / 'jpg'), or null for other files. */
function snapshotExt(a: Attachment, bytes: Uint8Array | undefined): 'png' | 'jpg' | null {
  if (!bytes || bytes.length < 3) return null;
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  return /\.png$/i.test(a.fileName) ? 'png' : null;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * The BCF package of `threads` as zip bytes. `files` gives an attachment's bytes (snapshots); `index` maps
 * object ids to GUIDs.
 */
export async function exportBcf(
  threads: Comment[],
  index: ObjectIndex,
  files: (fileId: string) => Promise<Uint8Array | undefined>,
  version: BcfVersion = '3.0',
): Promise<Uint8Array> {
  const zip: Record<string, Uint8Array> = {};
  zip['bcf.version'] = utf8(
    buildXml({
      Version: version === '3.0' ? { '@_VersionId': '3.0' } : { '@_VersionId': '2.1', DetailedVersion: '2.1' },
    }),
  );
  const labels = new Set<string>();
  const users = new Set<string>();
  for (const t of threads) {
    const dir = t.id;
    const views: XmlNode[] = [];
    const viewOf = new Map<string, string>();
    const all = [t, ...t.replies];
    for (const c of all) {
      for (const a of c.attachments) {
        if (a.type !== 1) continue;
        const bytes = await files(a.fileId);
        const ext = snapshotExt(a, bytes);
        const vi = viewToVisInfo(a.fileId, a, index, version);
        if (!vi && !ext) continue;
        if (vi) zip[`${dir}/viewpoint-${a.fileId}.bcfv`] = utf8(buildXml(vi));
        if (ext && bytes) zip[`${dir}/snapshot-${a.fileId}.${ext}`] = bytes;
        views.push({
          '@_Guid': a.fileId,
          ...(vi ? { Viewpoint: `viewpoint-${a.fileId}.bcfv` } : {}),
          ...(ext ? { Snapshot: `snapshot-${a.fileId}.${ext}` } : {}),
          Index: views.length,
        });
        if (c !== t && !viewOf.has(c.id)) viewOf.set(c.id, a.fileId);
      }
    }
    for (const l of t.labels) labels.add(l);
    for (const u of [t.author, ...t.assignees, ...t.replies.map((r) => r.author)]) users.add(u.userName);
    const comments = t.replies.map((r) => ({
      '@_Guid': r.id,
      Date: r.timeStamp,
      Author: r.author.userName,
      Comment: r.message,
      ...(viewOf.has(r.id) ? { Viewpoint: { '@_Guid': viewOf.get(r.id) } } : {}),
      ...(r.hasModifications ? { ModifiedDate: r.lastModificationTime, ModifiedAuthor: r.author.userName } : {}),
    }));
    const head = {
      '@_Guid': t.id,
      '@_TopicType': 'Issue',
      '@_TopicStatus': t.state,
      Title: titleOf(t.message),
    };
    const tail = {
      CreationDate: t.timeStamp,
      CreationAuthor: t.author.userName,
      ModifiedDate: t.lastModificationTime,
      ...(t.assignees.length ? { AssignedTo: t.assignees[0].userName } : {}),
      Description: t.message,
    };
    const markup =
      version === '3.0'
        ? {
            Markup: {
              Topic: {
                ...head,
                ...(t.labels.length ? { Labels: { Label: t.labels } } : {}),
                ...tail,
                ...(comments.length ? { Comments: { Comment: comments } } : {}),
                ...(views.length ? { Viewpoints: { ViewPoint: views } } : {}),
              },
            },
          }
        : {
            Markup: {
              Topic: { ...head, ...(t.labels.length ? { Labels: t.labels } : {}), ...tail },
              ...(comments.length ? { Comment: comments } : {}),
              ...(views.length ? { Viewpoints: views } : {}),
            },
          };
    zip[`${dir}/markup.bcf`] = utf8(buildXml(markup));
  }
  if (version === '3.0')
    zip['extensions.xml'] = utf8(
      buildXml({
        Extensions: {
          TopicTypes: { TopicType: ['Issue'] },
          TopicStatuses: { TopicStatus: [...COMMENT_STATES] },
          ...(labels.size ? { TopicLabels: { TopicLabel: [...labels] } } : {}),
          ...(users.size ? { Users: { User: [...users] } } : {}),
        },
      }),
    );
  return zipSync(zip, { level: 6 });
}
