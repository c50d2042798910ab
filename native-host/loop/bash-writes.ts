/**
 * Reads a Bash command the way the guard hook needs it: which files it would write, move, copy or delete, and which
 * git operations it would run. It splits the command into simple commands (;, &&, ||, |, newlines, subshells and
 * command substitutions), honours quotes and `cd`, strips wrappers (sudo, env, xargs, timeout, ...), and looks inside
 * `sh -c`, `eval` and one-line interpreter programs. What it cannot read (a variable, a script file) is caught after
 * the run by the content check of protected paths; this layer stops the common ways early, with a reason the fixer
 * reads.
 */

export interface BashEffect {
  /** Paths the command may write, create, move or delete, relative to `cwd` or absolute. */
  writes: Array<{ path: string; cwd: string; how: string }>;
  /** Find expressions that delete or run commands on what they match. */
  finds: Array<{ roots: string[]; names: string[]; cwd: string }>;
  /** Operations refused whatever the paths: pushes, commits and history rewrites. */
  refusals: string[];
}

type Token = { word: string } | { op: string };

const OPERATORS = ['&&', '||', ';;', '>>', '&>', '>&', '>|', '2>', '1>', ';', '|', '&', '(', ')', '<', '>', '\n'];

/** Splits a command line into words and operators; quotes are removed, `$(...)` and backticks become their own lines. */
export function tokenize(command: string): { tokens: Token[]; nested: string[] } {
  const tokens: Token[] = [];
  const nested: string[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) tokens.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] ?? '';
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end === -1 ? undefined : end);
      inWord = true;
      i = end === -1 ? command.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j += 1) {
        if (command[j] === '\\' && j + 1 < command.length) {
          j += 1;
          word += command[j] ?? '';
        } else if (command.startsWith('$(', j)) {
          const end = closing(command, j + 2);
          nested.push(command.slice(j + 2, end));
          word += '$(...)';
          j = end;
        } else word += command[j] ?? '';
      }
      inWord = true;
      i = j;
    } else if (c === '\\') {
      word += command[i + 1] ?? '';
      inWord = true;
      i += 1;
    } else if (command.startsWith('$(', i)) {
      const end = closing(command, i + 2);
      nested.push(command.slice(i + 2, end));
      word += '$(...)';
      inWord = true;
      i = end;
    } else if (c === '`') {
      const end = command.indexOf('`', i + 1);
      nested.push(command.slice(i + 1, end === -1 ? undefined : end));
      word += '$(...)';
      inWord = true;
      i = end === -1 ? command.length : end;
    } else if (c === '#' && !inWord) {
      const end = command.indexOf('\n', i);
      i = end === -1 ? command.length : end - 1;
    } else if (c === ' ' || c === '\t') {
      flush();
    } else {
      const op = OPERATORS.find((candidate) => command.startsWith(candidate, i));
      if (op && !(op.startsWith('2') || op.startsWith('1'))) {
        flush();
        tokens.push({ op });
        i += op.length - 1;
      } else if (op && !inWord) {
        tokens.push({ op: op.slice(1) });
        i += op.length - 1;
      } else {
        word += c;
        inWord = true;
      }
    }
  }
  flush();
  return { tokens, nested };
}

function closing(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length;
}

const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nohup', 'time', 'command', 'builtin', 'exec', 'nice', 'ionice', 'stdbuf', 'setsid', 'xargs', 'timeout', 'unbuffer']);
const DELETERS = new Set(['rm', 'unlink', 'rmdir', 'shred']);
const WRITERS = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'tee', 'truncate', 'touch', 'chmod', 'chown', 'chgrp', 'mkfifo', 'patch', 'split', 'csplit', 'ed', 'ex']);
const IN_PLACE = new Set(['sed', 'perl', 'ruby', 'gsed']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const INTERPRETERS = new Set(['python', 'python3', 'python2', 'node', 'nodejs', 'perl', 'ruby', 'php', 'deno', 'bun', 'awk', 'gawk']);
/** Calls that write or delete files in the usual scripting languages. */
const WRITING_CODE = /\bopen\s*\([^)]*['"][wax+]|write(?:File|FileSync|_text|_bytes|Stream)?\s*\(|append(?:File|FileSync)?\s*\(|\b(?:unlink|rmSync|rm|remove|rename|renameSync|copyFile|copyFileSync|cpSync|truncate|chmod|symlink|replace|move|copy2?|copyfile|rmtree)\s*\(|>\s*\$?\w|\bsystem\s*\(|\bexec\w*\s*\(/;

const GIT_REFUSED: Record<string, string> = {
  push: 'git push: Deputy pushes your change itself once it has checked it',
  commit: 'git commit: Deputy commits your change itself once it has checked it',
  rebase: 'git rebase rewrites history',
  'filter-branch': 'git filter-branch rewrites history',
  'filter-repo': 'git filter-repo rewrites history',
  'update-ref': 'git update-ref moves branches',
  replace: 'git replace rewrites history',
  am: 'git am makes commits',
  'cherry-pick': 'git cherry-pick makes commits',
  merge: 'git merge makes commits',
  revert: 'git revert makes commits',
  pull: 'git pull changes the branch',
  clean: 'git clean deletes untracked files',
  notes: 'git notes changes the repository',
  gc: 'git gc can drop history',
  prune: 'git prune can drop history',
  worktree: 'git worktree changes the repository',
  submodule: 'git submodule changes the repository',
};

function isOption(word: string): boolean {
  return word.startsWith('-') && word !== '-';
}

/** The git subcommand and its arguments, past global options such as -C dir and -c key=value. */
function gitParts(args: string[]): { sub: string; rest: string[]; dir?: string } {
  let dir: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '-C' || arg === '-c' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace') {
      if (arg === '-C') dir = args[i + 1];
      i += 1;
    } else if (!isOption(arg)) return { sub: arg, rest: args.slice(i + 1), ...(dir ? { dir } : {}) };
  }
  return { sub: '', rest: [] };
}

function gitEffect(args: string[], cwd: string, effect: BashEffect): void {
  const { sub, rest } = gitParts(args);
  const refused = GIT_REFUSED[sub];
  if (refused) {
    effect.refusals.push(sub === 'commit' && rest.includes('--amend') ? 'git commit --amend rewrites history (and Deputy commits your change itself)' : refused);
    return;
  }
  const flags = rest.filter(isOption);
  const plain = rest.filter((arg) => !isOption(arg));
  if (sub === 'reset' && (flags.some((flag) => /^--(?:hard|soft|merge|keep)$/.test(flag)) || plain.length > 0)) effect.refusals.push('git reset moves the branch or discards work');
  else if (sub === 'branch' && flags.some((flag) => /^-(?:[dDfmMcC]|-delete|-force|-move|-copy)$/.test(flag))) effect.refusals.push('git branch with -d/-D/-f/-m changes branches');
  else if (sub === 'tag' && (plain.length > 0 || flags.length > 0) && !flags.some((flag) => /^-(?:l|-list|n\d*)$/.test(flag))) effect.refusals.push('git tag changes tags');
  else if (sub === 'stash' && /^(?:drop|clear|pop|apply|push|save|$)/.test(plain[0] ?? '') && !/^(?:list|show)$/.test(plain[0] ?? '')) effect.refusals.push('git stash moves work out of the tree');
  else if (sub === 'reflog' && /^(?:expire|delete)$/.test(plain[0] ?? '')) effect.refusals.push('git reflog expire/delete drops history');
  else if (sub === 'config' && !flags.some((flag) => /^(?:--get|--get-all|--get-regexp|--list|-l|--show-origin)$/.test(flag)) && plain.length > 1) effect.refusals.push('git config changes the repository settings');
  else if (sub === 'remote' && /^(?:add|set-url|remove|rm|rename|set-head|set-branches)$/.test(plain[0] ?? '')) effect.refusals.push('git remote changes where the repository pushes');
  else if (sub === 'checkout' || sub === 'restore') {
    if (plain.includes('.') || flags.includes('--all')) effect.refusals.push(`git ${sub} of everything discards work`);
    else for (const path of rest.slice(rest.indexOf('--') + 1).filter((arg) => !isOption(arg))) effect.writes.push({ path, cwd, how: `git ${sub}` });
  } else if (sub === 'mv' || sub === 'rm') {
    for (const path of plain) effect.writes.push({ path, cwd, how: `git ${sub}` });
  }
}

/** Options of common write commands that take a value, so the value is not taken for a path. */
const VALUE_OPTIONS = new Set(['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group', '-s', '--size', '-r', '--reference', '-e', '-f', '--expression', '--file']);

function pathArgs(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (VALUE_OPTIONS.has(arg)) {
      if (arg === '-t' || arg === '--target-directory' || arg === '-o') out.push(args[i + 1] ?? '');
      i += 1;
    } else if (arg.startsWith('--target-directory=')) out.push(arg.slice('--target-directory='.length));
    else if (!isOption(arg)) out.push(arg);
  }
  return out.filter(Boolean);
}

function findEffect(args: string[], cwd: string, effect: BashEffect, depth: number): void {
  const roots: string[] = [];
  let i = 0;
  for (; i < args.length && !isOption(args[i] ?? '') && args[i] !== '(' && args[i] !== '!'; i += 1) roots.push(args[i] ?? '');
  const expression = args.slice(i);
  const names: string[] = [];
  let destructive = false;
  for (let j = 0; j < expression.length; j += 1) {
    const arg = expression[j] ?? '';
    if ((arg === '-name' || arg === '-iname' || arg === '-path' || arg === '-wholename') && expression[j + 1]) names.push(expression[j + 1] ?? '');
    if (arg === '-delete' || arg === '-fprint' || arg === '-fprintf' || arg === '-fls') destructive = true;
    if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
      destructive = true;
      const end = expression.findIndex((word, index) => index > j && (word === ';' || word === '+'));
      const inner = expression.slice(j + 1, end === -1 ? undefined : end).filter((word) => word !== '{}');
      commandEffect(inner, cwd, effect, depth + 1);
    }
  }
  if (destructive) effect.finds.push({ roots: roots.length > 0 ? roots : ['.'], names, cwd });
}

function interpreterCode(name: string, args: string[]): string | undefined {
  if (name === 'awk' || name === 'gawk') return args.find((arg) => !isOption(arg));
  const index = args.findIndex((arg) => arg === '-c' || arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print' || arg === '-r' || arg === '-E');
  return index === -1 ? undefined : args[index + 1];
}

/** Quoted strings in a program's text: the paths it could open. */
function literals(code: string): string[] {
  return [...code.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)].map((match) => match[2] ?? '');
}

function commandEffect(words: string[], cwd: string, effect: BashEffect, depth: number): void {
  let rest = words.filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || words.indexOf(word) > 0);
  while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] ?? '')) rest = rest.slice(1);
  while (rest.length > 0 && WRAPPERS.has(basename(rest[0] ?? ''))) {
    const wrapper = basename(rest[0] ?? '');
    rest = rest.slice(1);
    // Skip the wrapper's own options and, for timeout, its duration; env's NAME=value words too.
    while (rest.length > 0 && (isOption(rest[0] ?? '') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] ?? '') || (wrapper === 'timeout' && /^\d/.test(rest[0] ?? '')))) rest = rest.slice(1);
  }
  const [first, ...args] = rest;
  if (first === undefined || depth > 4) return;
  const name = basename(first);
  if (name === 'git') gitEffect(args, cwd, effect);
  else if (DELETERS.has(name) || WRITERS.has(name)) for (const path of pathArgs(args)) effect.writes.push({ path, cwd, how: name });
  else if (IN_PLACE.has(name) && args.some((arg) => /^-[a-zA-Z]*i|^--in-place/.test(arg))) for (const path of pathArgs(args)) effect.writes.push({ path, cwd, how: `${name} -i` });
  else if (name === 'dd') for (const arg of args.filter((word) => word.startsWith('of='))) effect.writes.push({ path: arg.slice(3), cwd, how: 'dd' });
  else if (name === 'find') findEffect(args, cwd, effect, depth);
  else if (SHELLS.has(name) || name === 'eval') {
    const code = name === 'eval' ? args.join(' ') : args[args.indexOf('-c') + 1];
    if ((name === 'eval' || args.includes('-c')) && code) analyzeInto(code, cwd, effect, depth + 1);
  } else if (INTERPRETERS.has(name)) {
    const code = interpreterCode(name, args);
    if (code && WRITING_CODE.test(code)) for (const path of literals(code)) effect.writes.push({ path, cwd, how: `${name} code` });
  }
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

function analyzeInto(command: string, cwd: string, effect: BashEffect, depth: number): void {
  const { tokens, nested } = tokenize(command);
  for (const inner of nested) analyzeInto(inner, cwd, effect, depth + 1);
  let here = cwd;
  let words: string[] = [];
  const end = (): void => {
    if (words[0] === 'cd' && words[1]) here = words[1].startsWith('/') ? words[1] : `${here}/${words[1]}`;
    else commandEffect(words, here, effect, depth);
    words = [];
  };
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (!token) continue;
    if ('word' in token) {
      words.push(token.word);
      continue;
    }
    if (token.op === '>' || token.op === '>>' || token.op === '&>' || token.op === '>|') {
      const next = tokens[i + 1];
      if (next && 'word' in next) {
        if (next.word !== '/dev/null' && !next.word.startsWith('&')) effect.writes.push({ path: next.word, cwd: here, how: 'redirect' });
        i += 1;
      }
    } else if (token.op === '>&') {
      // `2>&1` duplicates a descriptor; `>& file` writes the file.
      const next = tokens[i + 1];
      if (next && 'word' in next) {
        if (!/^\d+$|^-$/.test(next.word)) effect.writes.push({ path: next.word, cwd: here, how: 'redirect' });
        i += 1;
      }
    } else if (token.op === '<') {
      i += 1;
    } else end();
  }
  end();
}

export function analyzeBash(command: string, cwd: string): BashEffect {
  const effect: BashEffect = { writes: [], finds: [], refusals: [] };
  analyzeInto(command, cwd, effect, 0);
  return effect;
}
