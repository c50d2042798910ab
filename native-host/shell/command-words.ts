/**
 * Reads a shell command line well enough to judge it: the simple commands it is made of (split at `;`, `&&`, `||`,
 * `|`, `&`, newlines and subshell parentheses, with `$( … )` and backtick substitutions as commands of their own),
 * quotes respected. It does not run or expand anything; a rule that must hold for every command checks each one.
 */
export function simpleCommands(line: string): string[] {
  const out: string[] = [];
  scan(line, out);
  return out.map((part) => part.trim()).filter((part) => part !== '');
}

/** Scans from `start`; stops at an unquoted `)` when `closing` (the end of a substitution) and returns its index. */
function scan(text: string, out: string[], start = 0, closing = false): number {
  let current = '';
  let i = start;
  const push = (): void => {
    out.push(current);
    current = '';
  };
  while (i < text.length) {
    const char = text[i] as string;
    const next = text[i + 1];
    if (char === '\\' && next !== undefined) {
      current += char + next;
      i += 2;
      continue;
    }
    if (char === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end + 1;
      current += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (char === '"') {
      // Inside double quotes, substitutions still run: they are commands too.
      let j = i + 1;
      current += char;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) {
          current += text.slice(j, j + 2);
          j += 2;
        } else if (text[j] === '$' && text[j + 1] === '(') {
          const end = scan(text, out, j + 2, true);
          current += text.slice(j, end + 1);
          j = end + 1;
        } else if (text[j] === '`') {
          const end = text.indexOf('`', j + 1);
          const stop = end === -1 ? text.length : end;
          out.push(...simpleCommands(text.slice(j + 1, stop)));
          current += text.slice(j, stop + 1);
          j = stop + 1;
        } else {
          current += text[j];
          j += 1;
        }
      }
      current += '"';
      i = j + 1;
      continue;
    }
    if (char === '$' && next === '(') {
      const end = scan(text, out, i + 2, true);
      current += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (char === '`') {
      const end = text.indexOf('`', i + 1);
      const stop = end === -1 ? text.length : end;
      out.push(...simpleCommands(text.slice(i + 1, stop)));
      current += text.slice(i, stop + 1);
      i = stop + 1;
      continue;
    }
    if (char === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ' '))) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (closing && char === ')') {
      push();
      return i;
    }
    if (char === ';' || char === '&' || char === '|' || char === '\n' || char === '(' || char === ')' || char === '{' || char === '}') {
      // `{` and `}` only group when they stand alone as words; elsewhere (`${x}`, `a{b,c}`) they are part of a word.
      const alone = (char !== '{' && char !== '}') || ((i === 0 || /[\s;&|]/.test(text[i - 1] ?? ' ')) && (next === undefined || /[\s;&|]/.test(next)));
      if (alone) {
        push();
        i += 1;
        continue;
      }
    }
    current += char;
    i += 1;
  }
  push();
  return text.length;
}

/** Where a redirection may point and still only read or discard: nothing written, nothing sent. */
const HARMLESS_TARGET = /^(?:\/dev\/(?:null|stdout|stderr|stdin)|&?[0-9]+|&-|-)$/;

/**
 * The targets of one simple command's redirections outside quotes that write a file or open a socket (`> out.txt`,
 * `>> ~/.bashrc`, `> /dev/tcp/host/port`, `< /dev/udp/...`), leaving out those that only discard or join streams
 * (`2>&1`, `> /dev/null`) and here-documents. A file the command reads (`< input.txt`) is left out too, unless it is
 * one of bash's network devices, which send as well as read.
 */
export function redirectionTargets(command: string): string[] {
  // Quoted text cannot redirect: blank it out (keeping its length) before looking for operators.
  const bare = command.replace(/"(?:\\.|[^"\\])*"|'[^']*'/g, (quoted) => 'q'.repeat(quoted.length));
  const targets: string[] = [];
  for (const match of bare.matchAll(/(?:[0-9]+|&)?(<<<?|<>|>>|>\||>&|<&|&>>?|>|<)\s*([^\s;&|<>()]*)/g)) {
    const operator = match[1] ?? '';
    if (operator.startsWith('<<')) continue;
    const start = (match.index ?? 0) + match[0].length - (match[2] ?? '').length;
    const target = commandWords(command.slice(start, start + (match[2] ?? '').length))[0] ?? '';
    if (HARMLESS_TARGET.test(target)) continue;
    const reads = operator === '<' || operator === '<&';
    if (reads && !/^\/dev\/(?:tcp|udp)\//.test(target)) continue;
    targets.push(target === '' ? operator : target);
  }
  return targets;
}

/** Words of one simple command, quotes removed (`rm -rf "/tmp/a b"` gives rm, -rf, /tmp/a b). */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:\\.|[^"\\])*)"|'([^']*)'|((?:\\.|[^\s"'])+)/g;
  let word = '';
  let last = -1;
  for (const match of command.matchAll(pattern)) {
    const piece = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2] !== undefined ? match[2] : (match[3] ?? '').replace(/\\(.)/g, '$1');
    // Adjacent pieces (a"b"'c') form one word.
    if (match.index === last) word += piece;
    else {
      if (last !== -1) words.push(word);
      word = piece;
    }
    last = match.index + match[0].length;
  }
  if (last !== -1) words.push(word);
  return words;
}

/** Shell keywords that open or close a compound command; what follows them is the command. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'done', 'fi', 'esac']);
const WRAPPERS = new Set(['sudo', 'doas', 'nohup', 'nice', 'ionice', 'time', 'command', 'exec', 'builtin', 'env', 'timeout', 'stdbuf', 'chroot', 'xargs', 'su']);

/**
 * The command a simple command really runs, with what only wraps it stripped: `sudo -u x`, `env A=1`, `A=1`,
 * `nohup`, `nice -n 5`, `timeout 10`, `xargs`, and keywords such as `then` or `do`. `sudo rm -rf /` is judged as
 * `rm -rf /`; a lone `done` or `fi` runs nothing and gives no words.
 */
export function effectiveWords(command: string): string[] {
  const words = commandWords(command);
  let i = 0;
  while (i < words.length) {
    const word = words[i] as string;
    if (KEYWORDS.has(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i += 1;
      continue;
    }
    const base = word.replace(/^.*\//, '');
    if (!WRAPPERS.has(base)) break;
    i += 1;
    // Options of the wrapper, and the values some of them take.
    while (i < words.length && (words[i]?.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? ''))) {
      const option = words[i] as string;
      i += 1;
      if (/^-(u|g|n|c|p|C|h|U|s|k|E|i)$/.test(option) && base !== 'env' && i < words.length && !words[i]?.startsWith('-')) i += 1;
    }
    if ((base === 'timeout' || base === 'nice') && /^\d/.test(words[i] ?? '')) i += 1;
    if (base === 'su' && words[i] !== undefined && !words[i]?.startsWith('-')) i += 1;
  }
  return words.slice(i);
}
