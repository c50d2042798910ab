import picomatch from 'picomatch';

/** What both guard layers (the PreToolUse hook and the diff validator) enforce. Plain data, so the hook can read it. */
export interface GuardRules {
  protectedPaths: string[];
  /** When not empty, only these paths may change. */
  allowedPaths: string[];
  /** Extra fabrication regexes (JavaScript syntax, case-insensitive) from the loop definition. */
  fabricationPatterns: string[];
}

/** Files no fix may touch: secrets, keys, CI, git's own folder, and the loop's definition and guidance. */
export const DEFAULT_PROTECTED_PATHS = [
  '**/.env',
  '**/.env.*',
  '**/.envrc',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/credentials*',
  '**/*credentials.json',
  '**/.npmrc',
  '**/.netrc',
  '.github/workflows/**',
  '.gitlab-ci.yml',
  '.circleci/**',
  'Jenkinsfile',
  '.git/**',
  '**/.git/**',
  // Claude Code reads these: settings can switch hooks off or allow any command, and .mcp.json starts servers.
  '.claude/**',
  '**/.claude/**',
  '.mcp.json',
  'deputy.loop.json',
];

export const TEST_FILE_PATTERNS = [
  '**/*.test.*',
  '**/*.spec.*',
  '**/__tests__/**',
  'test/**',
  'tests/**',
  '**/test_*.py',
  '**/*_test.py',
  '**/*_test.go',
];

/** Fabrication: filling a gap with made-up data instead of fixing the cause. Each has a name for the report. */
export const FABRICATION_PATTERNS: Array<{ name: string; pattern: RegExp }> = [
  { name: 'a fake example URL', pattern: /https?:\/\/(?:[\w-]+\.)*example\.(?:com|org|net)\b/i },
  { name: 'an "(estimated)" figure', pattern: /\((?:estimated|approx\.?|approximate)\)/i },
  { name: 'a fallback-content function', pattern: /\b(?:function|def|const|let|var)\s+\w*(?:fallback|placeholder|dummy|fake|mock)\w*(?:content|data|value|result|response)\w*/i },
  { name: 'a hard-coded year series', pattern: /\b(?:19|20)\d{2}\b(?:\s*[,;]\s*['"]?(?:19|20)\d{2}\b['"]?){3,}/ },
  { name: 'placeholder text', pattern: /lorem ipsum/i },
];

export const SECRET_PATTERNS: Array<{ name: string; pattern: RegExp }> = [
  { name: 'a private key', pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP )?PRIVATE KEY-----/ },
  { name: 'an AWS access key', pattern: /\bAKIA[0-9A-Z]{16}\b/ },
  { name: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
  { name: 'an API key', pattern: /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}\b/ },
  { name: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/ },
  { name: 'a hard-coded credential', pattern: /\b(?:api[_-]?key|secret|token|passw(?:or)?d)\b\s*[:=]\s*['"][^'"\s]{12,}['"]/i },
];

/**
 * Shell commands that destroy work or rewrite history. Each pattern matches every spelling we know of: flags in any
 * order and combination, long and short forms, and a `+` refspec (which force-pushes without saying so).
 */
export const DESTRUCTIVE_COMMANDS: Array<{ name: string; pattern: RegExp }> = [
  { name: 'rm -rf', pattern: /\brm\s+(?:-[a-zA-Z]*\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*[fF]|-[a-zA-Z]*[fF][a-zA-Z]*[rR]|(?:-[rR]|--recursive)\s+(?:-\S+\s+)*(?:-f|--force)|(?:-f|--force)\s+(?:-\S+\s+)*(?:-[rR]|--recursive))/ },
  { name: 'git push --force', pattern: /\bgit\b[^|;&]*\bpush\b[^|;&]*(?:\s--force\b|\s--force-with-lease\b|\s--force-if-includes\b|\s-[a-zA-Z]*f[a-zA-Z]*\b|\s\+\S+)/ },
  { name: 'git reset --hard', pattern: /\bgit\b[^|;&]*\breset\b[^|;&]*--hard\b/ },
  { name: 'git clean', pattern: /\bgit\b[^|;&]*\bclean\b[^|;&]*\s-[a-zA-Z]*[fdx]/ },
  { name: 'git history rewrite', pattern: /\bgit\b[^|;&]*\b(?:filter-branch|filter-repo|update-ref\s+-d|branch\s+-D|reflog\s+expire|rebase\b)/ },
  { name: 'git checkout/restore of everything', pattern: /\bgit\b[^|;&]*\b(?:checkout|restore)\b[^|;&]*\s(?:--\s+)?\.(?:\s|$)/ },
];

export function protectedList(rules: GuardRules): string[] {
  return [...DEFAULT_PROTECTED_PATHS, ...rules.protectedPaths];
}

/** Why a repo-relative path may not change, or undefined when it may. */
export function pathViolation(path: string, rules: GuardRules): string | undefined {
  const normalized = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (normalized.startsWith('../')) return `${path} is outside the repository`;
  if (picomatch.isMatch(normalized, protectedList(rules), { dot: true, nocase: true })) return `${normalized} is a protected path`;
  if (rules.allowedPaths.length > 0 && !picomatch.isMatch(normalized, rules.allowedPaths, { dot: true })) {
    return `${normalized} is outside the allowed paths (${rules.allowedPaths.join(', ')})`;
  }
  return undefined;
}

export function isTestFile(path: string): boolean {
  return picomatch.isMatch(path.replace(/\\/g, '/'), TEST_FILE_PATTERNS, { dot: true });
}

/** Names of the fabrication and secret patterns found in some added text. */
export function contentViolations(text: string, rules: GuardRules): string[] {
  const found: string[] = [];
  for (const { name, pattern } of FABRICATION_PATTERNS) if (pattern.test(text)) found.push(`fabricated data: ${name}`);
  for (const source of rules.fabricationPatterns) {
    if (new RegExp(source, 'i').test(text)) found.push(`fabricated data: matches the configured pattern /${source}/`);
  }
  for (const { name, pattern } of SECRET_PATTERNS) if (pattern.test(text)) found.push(`a secret: ${name}`);
  return found;
}

export function commandViolation(command: string): string | undefined {
  return DESTRUCTIVE_COMMANDS.find(({ pattern }) => pattern.test(command))?.name;
}
