import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { backgroundFloors, boundaries } from '../../eslint.boundaries.js';
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

  it('keeps the background floors apart: every folder against every other, as eslint.boundaries.js lists them', () => {
    const floors = backgroundFloors;
    const folders = Object.keys(floors);
    expect(folders.sort()).toEqual(['chat', 'egress', 'frames', 'host', 'input', 'mcp', 'page', 'routines', 'stores', 'tasks', 'ui']);
    let banned = 0;
    for (const from of folders) {
      for (const to of folders.filter((folder) => folder !== from)) {
        const forbidden = (floors[from] ?? []).includes(to);
        for (const code of [`import { x } from '../${to}/some-module';\nexport const y = x;`, `import type { X } from '../${to}/some-module';\nexport type Y = X;`]) {
          const fired = rulesFired(`extension/background/${from}/a.ts`, code);
          if (forbidden) expect(fired, `${from}/ importing ${to}/`).toContain('no-restricted-imports');
          else expect(fired, `${from}/ importing ${to}/`).toEqual([]);
        }
        if (forbidden) banned += 1;
      }
      // A folder's own modules, shared/ and the platform are always fine.
      expect(rulesFired(`extension/background/${from}/a.ts`, "import { x } from './b';\nimport { y } from '../../../shared/errors';\nimport { z } from '../../platform/tabs';\nexport const w = [x, y, z];")).toEqual([]);
    }
    // The low floors really are low: stores/ and frames/ import no other folder, input/ only frames/.
    expect((floors.stores?.length ?? 0) + (floors.frames?.length ?? 0)).toBe(2 * (folders.length - 1));
    expect(folders.filter((folder) => folder !== 'input' && !(floors.input ?? []).includes(folder))).toEqual(['frames']);
    expect(banned).toBeGreaterThan(40);
    // Some 250 lint runs: minutes on a busy two-core machine.
  }, 300_000);

  it('lets features import the ui channel but not the handler table that composes them, nor the entry', () => {
    expect(rulesFired('extension/background/host/a.ts', "import type { UiHandlers } from '../ui/ui-server';\nexport type H = UiHandlers;")).toEqual([]);
    expect(rulesFired('extension/background/tasks/a.ts', "import { x } from '../ui/ui-handlers';\nexport const y = x;")).toContain('no-restricted-imports');
    expect(rulesFired('extension/background/mcp/a.ts', "import { x } from '../index';\nexport const y = x;")).toContain('no-restricted-imports');
    expect(rulesFired('extension/background/ui/ui-handlers.ts', "import { x } from '../tasks/task-ui-handlers';\nimport { y } from '../mcp/mcp-wiring';\nexport const z = [x, y];")).toEqual([]);
    expect(rulesFired('extension/background/index.ts', "import { x } from './ui/ui-handlers';\nimport { y } from './tasks/task-wiring';\nexport const z = [x, y];")).toEqual([]);
    // The base rules still hold inside the floors (each floor block repeats them).
    expect(rulesFired('extension/background/stores/a.ts', "import { x } from '../../../native-host/paths';\nexport const y = x;")).toContain('no-restricted-imports');
    expect(rulesFired('extension/background/page/a.ts', "import { spawn } from 'node:child_process';\nexport const y = spawn;")).toContain('no-restricted-imports');
  });

  it('keeps the rest of the extension out of the background: its pages talk to it over a channel', () => {
    expect(rulesFired('extension/sidepanel/a.ts', "import { x } from '../background/tasks/task-store';\nexport const y = x;")).toContain('no-restricted-imports');
    expect(rulesFired('extension/content/chat/a.ts', "import type { X } from '../../background/chat/chat-driver';\nexport type Y = X;")).toContain('no-restricted-imports');
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

  it('covers the extension too, as the config lists it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-cycles-'));
    try {
      mkdirSync(join(dir, 'extension/background/tasks'), { recursive: true });
      mkdirSync(join(dir, 'extension/sidepanel'), { recursive: true });
      const runner = "import type { Store } from './task-store';\nexport type Runner = { store: Store };\n";
      writeFileSync(join(dir, 'extension/background/tasks/task-runner.ts'), runner);
      writeFileSync(join(dir, 'extension/background/tasks/task-store.ts'), "import type { Runner } from './task-runner';\nexport type Store = { runner?: Runner };\n");
      const view = "import type { Props } from './props';\nexport const view = (p: Props) => p;\n";
      writeFileSync(join(dir, 'extension/sidepanel/view.tsx'), view);
      writeFileSync(join(dir, 'extension/sidepanel/props.ts'), "import type { view } from './view';\nexport type Props = { v?: typeof view };\n");
      const lint = new Linter({ configType: 'flat', cwd: dir });
      const config: Linter.Config[] = [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...cycles];
      const fired = (file: string, code: string) => lint.verify(code, config, { filename: join(dir, file) }).map((message) => message.message);
      expect(fired('extension/background/tasks/task-runner.ts', runner)[0]).toMatch(/^Import cycle: .*task-runner\.ts -> .*task-store\.ts -> .*task-runner\.ts/);
      expect(fired('extension/sidepanel/view.tsx', view)[0]).toMatch(/^Import cycle: .*view\.tsx -> .*props\.ts -> .*view\.tsx/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
