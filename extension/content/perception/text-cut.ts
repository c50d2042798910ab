import { findSecrets } from '../../../shared/agent/secret-patterns';

/** How far past the cut a secret may run and still be kept whole. */
const SECRET_REACH = 400;

/**
 * Shortens page text to about `max` characters without cutting a sentence in the middle when a sentence ends in the
 * last half of the room (otherwise at a word's end), and says how much was left out: `… (+312 chars)`. The rest stays
 * on the page, where `find` reads it whole. A secret is never cut in two (the part kept would reach the model before
 * the background could recognise and redact it): the cut moves past its end.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max + 1);
  let cut = -1;
  for (const match of room.matchAll(/[.!?…:;]["')\]]?(?=\s)/g)) {
    const end = (match.index ?? 0) + match[0].length;
    if (end >= max / 2 && end <= max) cut = end;
  }
  if (cut < 0) {
    const space = room.lastIndexOf(' ');
    cut = space >= max * 0.6 ? space : max;
  }
  for (const span of findSecrets(text.slice(0, cut + SECRET_REACH), { emails: true, phones: true })) {
    if (span.start < cut && span.end > cut) {
      cut = span.end;
      break;
    }
    if (span.start >= cut) break;
  }
  const kept = text.slice(0, cut).trimEnd();
  const left = text.length - kept.length;
  return left <= 1 ? text : `${kept} … (+${left} chars)`;
}
