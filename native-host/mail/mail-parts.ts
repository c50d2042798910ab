import type { AttachmentRules, AttachmentType, SkippedAttachment } from '../../shared/protocol/mail-protocol';
import { formatSize } from '../../shared/mail-text';
import { allowedList, asAttachmentType, extensionOf, typeFromContentType } from './attachment-types';

/** One MIME part as both sources describe it (IMAP BODYSTRUCTURE, Gmail's payload), before anything is downloaded. */
export interface MailPart {
  /** How the source fetches this part: the IMAP section ("2.1") or Gmail's attachment id. */
  ref: string;
  contentType: string;
  filename?: string;
  disposition?: string;
  /** Decoded size in bytes as far as the source knows it before downloading. */
  size?: number;
  children?: MailPart[];
}

/** A part to download: a file to save, or a forwarded mail the server could not look into, parsed after download. */
export type PlannedAttachment = { part: MailPart; name: string; depth: number } & (
  { kind: 'file'; type: AttachmentType } | { kind: 'message' }
);

export interface AttachmentPlan {
  take: PlannedAttachment[];
  skipped: SkippedAttachment[];
}

/** A base64 part's size as the server counts it, turned into the decoded size (line breaks included, about 3/4). */
export function decodedSize(encodedSize: number | undefined, encoding: string | undefined): number | undefined {
  if (encodedSize === undefined) return undefined;
  return encoding?.toLowerCase() === 'base64' ? Math.floor((encodedSize * 3) / 4) : encodedSize;
}

const isContainer = (part: MailPart): boolean => part.children !== undefined && part.children.length > 0;
const isMessage = (part: MailPart): boolean => part.contentType.toLowerCase() === 'message/rfc822';

type Leaf = Pick<MailPart, 'filename' | 'contentType' | 'disposition' | 'size'>;

/**
 * Whether one leaf part is an attachment to save: undefined for a message body (no file name, not marked as an
 * attachment), a reason when its type is not allowed or it is over the size cap, else its name and type. The type
 * comes from the file name's extension (what the user will open it as), or the Content-Type when it has no name.
 */
export function attachmentVerdict(
  part: Leaf,
  rules: AttachmentRules,
): { name: string; type: AttachmentType } | SkippedAttachment | undefined {
  const named = part.filename !== undefined && part.filename.trim() !== '';
  if (!named && part.disposition?.toLowerCase() !== 'attachment') return undefined;
  const claimed = named ? extensionOf(part.filename ?? '') : '';
  const type = named ? asAttachmentType(claimed) : typeFromContentType(part.contentType);
  const name = named ? (part.filename ?? '') : `attachment${type ? `.${type}` : ''}`;
  if (type === undefined || !rules.types.includes(type)) {
    const what = claimed !== '' ? `.${claimed}` : named ? 'a file without an extension' : part.contentType;
    return { name, why: `${what} is not an allowed type (allowed: ${allowedList(rules.types)})` };
  }
  if (part.size !== undefined && part.size > rules.maxMb * 1_000_000)
    return { name, why: `too large: ${formatSize(part.size)}, over the ${rules.maxMb} MB limit` };
  return { name, type };
}

/**
 * Decides, from the structure alone, which parts to download: leaves with a file name or an attachment disposition
 * whose type is allowed and whose size is within the cap, looked for through multiparts and forwarded mails down to
 * `maxDepth` levels. Everything passed over is listed with the reason, so "no usable attachment" can say why.
 */
export function planAttachments(root: MailPart, rules: AttachmentRules): AttachmentPlan {
  const plan: AttachmentPlan = { take: [], skipped: [] };
  const maxBytes = rules.maxMb * 1_000_000;
  let tooDeep = false;
  const visit = (part: MailPart, depth: number): void => {
    if (depth > rules.maxDepth) {
      tooDeep = true;
      return;
    }
    if (isContainer(part)) {
      for (const child of part.children ?? []) visit(child, depth + 1);
      return;
    }
    if (isMessage(part)) {
      // A forwarded mail the source could not look into (sent base64-encoded, against RFC 2046): it is parsed after
      // download, one level deeper.
      if (depth + 1 > rules.maxDepth) tooDeep = true;
      else if (part.size !== undefined && part.size > maxBytes * 2)
        plan.skipped.push({
          name: part.filename ?? 'forwarded mail',
          why: `a forwarded mail of ${formatSize(part.size)}, too large to look into`,
        });
      else plan.take.push({ part, name: part.filename ?? 'forwarded mail', kind: 'message', depth });
      return;
    }
    const verdict = attachmentVerdict(part, rules);
    if (verdict === undefined) return;
    if ('why' in verdict) {
      plan.skipped.push(verdict);
      return;
    }
    plan.take.push({ part, name: verdict.name, kind: 'file', type: verdict.type, depth });
  };
  visit(root, 0);
  if (tooDeep)
    plan.skipped.push({
      name: '(nested parts)',
      why: `parts nested deeper than ${rules.maxDepth} levels were not looked into`,
    });
  return plan;
}
