import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AttachmentStream } from 'mailparser';
import type {
  AttachmentRules,
  AttachmentType,
  MailEvent,
  SavedAttachment,
  SkippedAttachment,
} from '../../shared/protocol/mail-protocol';
import { attachmentVerdict, planAttachments, type PlannedAttachment } from './mail-parts';
import type { MailSource, MailSummary } from './mail-source';
import { saveAttachment } from './save-attachment';

export interface Extracted {
  saved: SavedAttachment[];
  skipped: SkippedAttachment[];
}

interface ExtractContext {
  folder: string;
  rules: AttachmentRules;
  onEvent: (event: MailEvent) => void;
}

function recorder(context: ExtractContext, result: Extracted) {
  return {
    saved(saved: SavedAttachment, mailName?: string): void {
      result.saved.push(saved);
      context.onEvent({
        type: 'saved',
        name: saved.name,
        size: saved.size,
        attachmentType: saved.type,
        path: saved.path,
        ...(mailName !== undefined && mailName !== saved.name ? { mailName } : {}),
      });
    },
    skipped(skipped: SkippedAttachment): void {
      result.skipped.push(skipped);
      context.onEvent({ type: 'skipped_attachment', name: skipped.name, why: skipped.why });
    },
    /** Saves one attachment through the size cap and the content check, and records what became of it. */
    async save(content: Readable, name: string, type: AttachmentType): Promise<void> {
      const maxBytes = context.rules.maxMb * 1_000_000;
      const outcome = await saveAttachment(content, { folder: context.folder, name, type, maxBytes });
      if ('saved' in outcome) this.saved(outcome.saved, name);
      else this.skipped({ name, why: outcome.why });
    },
  };
}

/**
 * Looks into a forwarded mail that arrived as an opaque (encoded) part, with mailparser: each attachment in it is
 * judged like a top-level one, saved through the same size cap, and the parser waits for each before going on, so
 * memory stays bounded whatever the forwarded mail holds.
 */
async function extractForwarded(
  content: Readable,
  depth: number,
  context: ExtractContext,
  record: ReturnType<typeof recorder>,
): Promise<void> {
  // The mail parser is loaded when a forwarded mail is first opened, not at the host's start.
  const { MailParser } = await import('mailparser');
  const parser = new MailParser({
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
    checksumAlgo: false,
  });
  const handle = async (attachment: AttachmentStream): Promise<void> => {
    try {
      const nested = depth + 1 + (attachment.partId ?? '1').split('.').length;
      const leaf = {
        contentType: attachment.contentType,
        ...(attachment.filename ? { filename: attachment.filename } : {}),
        disposition: attachment.contentDisposition ?? 'attachment',
      };
      const verdict = attachmentVerdict(leaf, context.rules);
      if (verdict === undefined) return;
      if (nested > context.rules.maxDepth)
        record.skipped({ name: verdict.name, why: `nested deeper than ${context.rules.maxDepth} levels` });
      else if ('why' in verdict) record.skipped(verdict);
      else await record.save(attachment.content, verdict.name, verdict.type);
    } finally {
      attachment.content.resume();
      attachment.release?.();
    }
  };
  await new Promise<void>((resolve, reject) => {
    let pending = Promise.resolve();
    parser.on('data', (data: AttachmentStream | { type: 'text' }) => {
      if (data.type === 'attachment') pending = pending.then(() => handle(data)).catch(reject);
    });
    parser.on('error', reject);
    content.on('error', reject);
    parser.on('end', () => void pending.then(resolve, reject));
    content.pipe(parser);
  });
}

/**
 * Saves the usable attachments of one mail into the run folder: the structure decides what to download (type, size,
 * depth) before a byte of content moves, and each saved file is checked again while it is written.
 */
export async function extractAttachments(
  source: MailSource,
  mail: MailSummary,
  context: ExtractContext,
): Promise<Extracted> {
  const result: Extracted = { saved: [], skipped: [] };
  const record = recorder(context, result);
  const plan = planAttachments(await source.structure(mail), context.rules);
  for (const skipped of plan.skipped) record.skipped(skipped);
  const take = async (planned: PlannedAttachment): Promise<void> => {
    const content = await source.download(mail, planned.part);
    if (planned.kind === 'message') return extractForwarded(content, planned.depth, context, record);
    await record.save(content, planned.name, planned.type);
  };
  try {
    for (const planned of plan.take) await take(planned);
  } catch (error) {
    // The caller looks at the mail again after reconnecting: files from this attempt would only be duplicates then.
    await Promise.all(result.saved.map((saved) => unlink(saved.path).catch(() => undefined)));
    throw error;
  }
  return result;
}
