import type { LoopConfigInput } from './loop-protocol';

/**
 * The short forms a person types for a loop's trigger and output (a `deputy loop` flag, a side panel field), turned
 * into the definition's sections. An http(s) address is a URL; anything else is a command, or a path whose last part
 * is the file name pattern.
 */
const isUrl = (text: string): boolean => /^https?:\/\/\S+$/i.test(text);

/** `node build.mjs` runs a command; `https://service.test/run` is POSTed to. */
export function triggerFromText(text: string): NonNullable<LoopConfigInput['trigger']> {
  const value = text.trim();
  return isUrl(value) ? { url: value } : { command: value };
}

/** `out/deck-*.pptx` waits for a new file matching deck-*.pptx in out/; `https://service.test/latest.pptx` downloads it. */
export function outputFromText(text: string): NonNullable<LoopConfigInput['output']> {
  const value = text.trim();
  if (isUrl(value)) return { url: value };
  const cut = Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\'));
  if (cut < 0) return { folder: '.', pattern: value };
  return { folder: value.slice(0, cut) || value.slice(0, cut + 1), pattern: value.slice(cut + 1) };
}

