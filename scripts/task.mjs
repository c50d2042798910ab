// `npm run task`: the prebuilt CLI (dist-host/run-task.mjs, made by `npm run build`) starts without compiling
// TypeScript; before the first build, the sources run through tsx, which is slower to start but says the same things.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const prebuilt = fileURLToPath(new URL('../dist-host/run-task.mjs', import.meta.url));
if (existsSync(prebuilt)) {
  await import(prebuilt);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./run-task.ts');
}
