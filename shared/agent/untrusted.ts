/**
 * Wraps text that came from a page or another person, so the model can tell it from the user's instructions. The tag
 * name inside the text is broken up, so a page cannot close the wrapper early and speak as the user.
 */
export function wrapUntrusted(tag: 'untrusted_page' | 'untrusted_chat' | 'untrusted_output', attributes: Record<string, string>, text: string): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${value.replace(/["<>\n]/g, ' ').slice(0, 300)}"`)
    .join('');
  const safe = text.replace(/<(\/?)\s*untrusted_/gi, '<$1untrusted\u200b_');
  return `<${tag}${attrs}>\n${safe}\n</${tag}>`;
}
