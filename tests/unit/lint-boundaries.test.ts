import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from '../../eslint.boundaries.js';
import { cycles } from '../../eslint.cycles.js';

const linter = new Linter({ configType: 'flat' });
const config: Linter.Config[] = [
  { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } },
  ...boundaries,
];

/** Lints one snippet as if it lived at `path`, returning the rules that fired. */
function rulesFired(path: string, code: string): string[] {
  return linter.verify(code, config, { filename: path }).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

describe('the architecture boundaries enforced by lint', () => {
  it('keeps shared/ free of the extension, the host, Node built-ins and runtime globals', () => {
    expect(rulesFired('shared/a.ts', "import { x } from '../extension/platform/tabs';")).toContain('no-restricted-imports');
    expect(rulesFired('shared/a.ts', "import { x } from '../native-host/paths';")).toContain('no-restricted-imports');
    expect(rulesFired('shared/a.ts', "import { readFile } from 'node:fs/promises';")).toContain('no-restricted-imports');
    expect(rulesFired('shared/a.ts', "import { join } from 'path';")).toContain('no-restricted-imports');
    expect(rulesFired('shared/a.ts', 'export const id = chrome.runtime.id;')).toContain('no-restricted-globals');
    expect(rulesFired('shared/a.ts', 'export const cwd = process.cwd();')).toContain('no-restricted-globals');
    expect(rulesFired('shared/a.ts', 'export const title = document.title;')).toContain('no-restricted-globals');
  });

  it('lets only extension/platform/ touch chrome.*', () => {
    expect(rulesFired('extension/background/a.ts', 'chrome.tabs.query({});')).toContain('no-restricted-globals');
    expect(rulesFired('extension/content/a.ts', 'chrome.runtime.sendMessage({});')).toContain('no-restricted-globals');
    expect(rulesFired('extension/platform/tabs.ts', 'chrome.tabs.query({});')).toEqual([]);
  });

  it('keeps the extension and the native host from importing each other', () => {
    expect(rulesFired('extension/background/a.ts', "import { x } from '../../native-host/paths';")).toContain('no-restricted-imports');
    expect(rulesFired('extension/background/a.ts', "import { spawn } from 'node:child_process';")).toContain('no-restricted-imports');
    expect(rulesFired('native-host/a.ts', "import { x } from '../extension/platform/tabs';")).toContain('no-restricted-imports');
  });

  it('keeps logs off the host protocol stream', () => {
    expect(rulesFired('native-host/loop/a.ts', "console.log('hi');")).toContain('no-restricted-properties');
    expect(rulesFired('native-host/install/a.ts', "process.stdout.write('hi');")).toContain('no-restricted-properties');
  });

  it('allows what each folder may use', () => {
    expect(rulesFired('shared/a.ts', "import { z } from 'zod';\nexport const s = z.string();")).toEqual([]);
    expect(rulesFired('native-host/a.ts', "import { join } from 'node:path';\nexport const p = join('a', 'b');")).toEqual([]);
  });
});

describe('the import cycle rule', () => {
  it('rejects a cycle of imports, type-only ones included, and allows a shared module both import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-cycles-'));
    try {
      writeFileSync(join(dir, 'engine.ts'), "import { step } from './step';\nexport interface Context { n: number }\nexport const run = () => step;\n");
      writeFileSync(join(dir, 'step.ts'), "import type { Context } from './engine';\nexport const step = (c: Context) => c.n;\n");
      writeFileSync(join(dir, 'context.ts'), 'export interface Context { n: number }\n');
      writeFileSync(join(dir, 'step2.ts'), "import type { Context } from './context';\nexport const step = (c: Context) => c.n;\n");
      writeFileSync(join(dir, 'engine2.ts'), "import type { Context } from './context';\nimport { step } from './step2';\nexport const run = (c: Context) => step(c);\n");
      const lint = new Linter({ configType: 'flat', cwd: dir });
      const config: Linter.Config[] = [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...cycles.map((block) => ({ ...block, files: ['**/*.ts'] }))];
      const fired = (file: string, code: string) => lint.verify(code, config, { filename: join(dir, file) }).map((message) => message.message);
      expect(fired('step.ts', "import type { Context } from './engine';\nexport const step = (c: Context) => c.n;\n")[0]).toMatch(/^Import cycle: .*step\.ts -> .*engine\.ts -> .*step\.ts/);
      expect(fired('engine2.ts', "import type { Context } from './context';\nimport { step } from './step2';\nexport const run = (c: Context) => step(c);\n")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
