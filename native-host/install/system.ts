import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdir, open, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file operations install, uninstall and doctor need; tests pass an in-memory one for Windows layouts. */
export interface InstallFs {
  /** The file's text, or undefined when there is no such file. */
  readText(path: string): Promise<string | undefined>;
  /** Writes through a temporary file and a rename, creating parent folders, so a crash never leaves half a file. */
  writeAtomic(path: string, content: string, mode: number): Promise<void>;
  /** Removes a file; false when there was nothing to remove. */
  remove(path: string): Promise<boolean>;
  /** Removes a folder only if it is empty; false when it is not empty or not there. */
  removeEmptyDir(path: string): Promise<boolean>;
  /** What doctor needs to know about a path; undefined when nothing is there. */
  probe(path: string): Promise<{ isFile: boolean; executable: boolean } | undefined>;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell (arguments are passed as they are). Only `reg` on Windows goes through it. */
export type CommandRunner = (command: string, args: string[]) => Promise<CommandResult>;

export const nodeInstallFs: InstallFs = {
  readText: async (path) => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  writeAtomic: async (path, content, mode) => {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', mode);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask may have narrowed the mode given to open; the launcher must end up executable.
    await chmod(temporary, mode);
    await rename(temporary, path);
  },
  remove: async (path) => {
    try {
      await stat(path);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await rm(path, { force: true });
    return true;
  },
  removeEmptyDir: async (path) => {
    try {
      await rmdir(path);
      return true;
    } catch {
      // Not empty, not there, or not a folder: in every case it stays.
      return false;
    }
  },
  probe: async (path) => {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (process.platform === 'win32') return { isFile: info.isFile(), executable: info.isFile() };
    const executable = await access(path, constants.X_OK).then(
      () => true,
      () => false,
    );
    return { isFile: info.isFile(), executable };
  },
};

export const execRunner: CommandRunner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, args, { windowsHide: true, timeout: 20_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
