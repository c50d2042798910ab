import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidePreToolUse, runHook } from '../../../../native-host/loop/pre-tool-use-hook';

const repo = '/srv/service';
const rules = { repo, protectedPaths: ['CLAUDE.md', 'data/**'], allowedPaths: [], fabricationPatterns: ['TODO: real numbers'] };
const input = (toolName: string, toolInput: Record<string, unknown>) => ({
  session_id: 'b2b5e2b7-0f2c-4a55-9d1a-6c3c1b8f0e11',
  transcript_path: '/home/dev/.claude/projects/service/b2b5e2b7.jsonl',
  cwd: repo,
  permission_mode: 'acceptEdits',
  hook_event_name: 'PreToolUse',
  tool_name: toolName,
  tool_input: toolInput,
});

describe('decidePreToolUse', () => {
  it.each([
    ['Edit', { file_path: join(repo, 'src/app.ts'), old_string: 'a - b', new_string: 'a + b' }],
    ['Write', { file_path: join(repo, 'src/new.ts'), content: 'export const total = 3;\n' }],
    ['Write', { file_path: 'src/relative.ts', content: 'export {};' }],
    ['Read', { file_path: join(repo, '.env') }],
    ['Grep', { pattern: 'TODO', path: repo }],
    ['Bash', { command: 'npm test -- --run' }],
    ['Bash', { command: 'git diff --stat && git status' }],
    ['Bash', { command: 'rm src/old.ts' }],
    ['Bash', { command: 'node build.js > dist/out.txt 2>/dev/null' }],
    ['Bash', { command: 'git log --format=%s -5 | grep force' }],
  ])('allows %s %j', (tool, toolInput) => {
    expect(decidePreToolUse(input(tool, toolInput), rules)).toEqual({ block: false });
  });

  it.each([
    ['Write', { file_path: join(repo, '.env'), content: 'KEY=1' }, '.env is a protected path'],
    ['Edit', { file_path: join(repo, 'config/.env.production'), old_string: 'a', new_string: 'b' }, 'config/.env.production is a protected path'],
    ['Write', { file_path: join(repo, '.github/workflows/ci.yml'), content: 'on: push' }, '.github/workflows/ci.yml is a protected path'],
    ['Edit', { file_path: join(repo, 'CLAUDE.md'), old_string: 'x', new_string: 'y' }, 'CLAUDE.md is a protected path'],
    ['Write', { file_path: join(repo, '.git/config'), content: '' }, '.git/config is a protected path'],
    ['Write', { file_path: join(repo, 'keys/server.pem'), content: '' }, 'keys/server.pem is a protected path'],
    ['Write', { file_path: '/etc/hosts', content: '' }, 'is outside the repository'],
    ['Write', { file_path: join(repo, 'data/prices.csv'), content: '1,2' }, 'data/prices.csv is a protected path'],
    ['MultiEdit', { file_path: join(repo, 'src/report.ts'), edits: [{ old_string: 'a', new_string: "const url = 'https://www.example.com/api';" }] }, 'a fake example URL'],
    ['Write', { file_path: join(repo, 'src/revenue.ts'), content: 'export const revenue = "4.2M (estimated)";' }, 'an "(estimated)" figure'],
    ['Write', { file_path: join(repo, 'src/years.ts'), content: 'export const years = [2019, 2020, 2021, 2022, 2023];' }, 'a hard-coded year series'],
    ['Edit', { file_path: join(repo, 'src/a.ts'), old_string: 'x', new_string: 'function getFallbackContent() { return {}; }' }, 'a fallback-content function'],
    ['Edit', { file_path: join(repo, 'src/a.ts'), old_string: 'x', new_string: '// TODO: real numbers' }, 'matches the configured pattern'],
    ['Write', { file_path: join(repo, 'src/key.ts'), content: 'const key = "AKIAIOSFODNN7EXAMPLE";' }, 'an AWS access key'],
    ['Bash', { command: 'rm -rf src' }, '"rm -rf"'],
    ['Bash', { command: 'rm -fr ./build' }, '"rm -rf"'],
    ['Bash', { command: 'rm --recursive --force dist' }, '"rm -rf"'],
    ['Bash', { command: 'git push --force origin main' }, '"git push --force"'],
    ['Bash', { command: 'git push -f' }, '"git push --force"'],
    ['Bash', { command: 'git push --force-with-lease origin HEAD' }, '"git push --force"'],
    ['Bash', { command: 'git push origin +main' }, '"git push --force"'],
    ['Bash', { command: 'cd src && git push -uf origin main' }, '"git push --force"'],
    ['Bash', { command: 'git reset --hard HEAD~1' }, '"git reset --hard"'],
    ['Bash', { command: 'git clean -fd' }, '"git clean"'],
    ['Bash', { command: 'git clean -xdf' }, '"git clean"'],
    ['Bash', { command: 'echo API_KEY=abc > .env' }, '.env is a protected path'],
  ])('blocks %s %j with exit code 2 and the reason on stderr', (tool, toolInput, reason) => {
    const decision = decidePreToolUse(input(tool, toolInput), rules);
    expect(decision.block).toBe(true);
    expect(decision.block && decision.reason).toContain(reason);
  });

  it('blocks a call it cannot read, and runHook answers exit 2 with the reason', () => {
    expect(decidePreToolUse({ tool_input: {} }, rules)).toMatchObject({ block: true });
    expect(runHook('{', rules)).toEqual({ exitCode: 2, stderr: 'Deputy guard: the hook input is not JSON, so the tool call is refused.\n' });
    expect(runHook(JSON.stringify(input('Bash', { command: 'git reset --hard' })), rules).exitCode).toBe(2);
    expect(runHook(JSON.stringify(input('Bash', { command: 'ls' })), rules)).toEqual({ exitCode: 0, stderr: '' });
  });
});

describe('decidePreToolUse on writing Bash commands', () => {
  const withFiles = { ...rules, protectedFiles: ['.env', 'config/.env.production', '.github/workflows/ci.yml'] };
  it.each([
    ["sed -i 's/development/production/' .env", '.env is a protected path, and this command (sed -i) would change it'],
    ['cp /tmp/x .env', '(cp)'],
    ['mv deploy.yml .github/workflows/', '(mv)'],
    ['echo ok | tee -a .env', '(tee)'],
    ['truncate -s 0 .env', '(truncate)'],
    ['cd config && cp ../x .env.production', 'config/.env.production is a protected path'],
    ["python3 -c \"open('.env', 'w').write('KEY=1')\"", '(python3 code)'],
    ["node -e \"require('fs').writeFileSync('.env', 'x')\"", '(node code)'],
    ["bash -c 'cat x > .env'", '(redirect)'],
    ['cat x >| CLAUDE.md', 'CLAUDE.md is a protected path'],
    ['cat x > ~/.claude/settings.json', 'outside the repository'],
    ['find . -name ".env*" -delete', 'this find deletes or runs commands on files that include .env'],
    ["find config -exec rm {} +", 'config/.env.production'],
    ['git push origin HEAD:main', 'git push: Deputy pushes your change itself'],
    ['git commit --amend --no-edit', 'git commit --amend rewrites history'],
    ['git commit -am "fix"', 'git commit: Deputy commits your change itself'],
    ['git -C . rebase -i HEAD~3', 'rewrites history'],
    ['git reset --soft HEAD~1', 'git reset moves the branch'],
    ['git config core.hooksPath .hooks', 'git config changes the repository settings'],
    ['git remote set-url origin https://evil.test/x.git', 'git remote changes where the repository pushes'],
    ['echo "$(git push)"', 'git push'],
  ])('blocks %s', (command, reason) => {
    const decision = decidePreToolUse(input('Bash', { command }), withFiles);
    expect(decision.block).toBe(true);
    expect(decision.block && decision.reason).toContain(reason);
  });

  it.each([
    'npm test 2>&1 | tail -20',
    'node test/math.test.mjs > /tmp/out.txt',
    "find . -name '*.pyc' -delete",
    'git status && git diff HEAD -- src/',
    'git config --get remote.origin.url',
    "sed -n '1,20p' .env.example",
    'cp src/a.ts src/b.ts',
  ])('allows %s', (command) => {
    expect(decidePreToolUse(input('Bash', { command }), withFiles)).toEqual({ block: false });
  });
});
