import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A new folder `<parent>/<name>`, or `<name>-2`, `-3`... when that one is there already: two runs that end in the same
 * millisecond (two tasks at once, two test files) each keep their own trace.
 */
export async function newRunDir(parent: string, name: string): Promise<string> {
  await mkdir(parent, { recursive: true });
  for (let n = 1; ; n += 1) {
    const dir = join(parent, n === 1 ? name : `${name}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
