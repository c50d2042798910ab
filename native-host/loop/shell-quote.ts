/** Quotes one word for the POSIX shell that Claude Code runs commands in (bash, also on Windows). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A word as a person would type it: bare when the shell reads it as it is, else quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word);
}
