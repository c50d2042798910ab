import type { CommandResult, CommandRunner, InstallFs } from '../../../../native-host/install/system';

/** An in-memory file system, for layouts of another OS (Windows paths cannot be written on Linux). */
export function memoryFs(): InstallFs & { files: Map<string, { content: string; mode: number }>; dirs: Set<string> } {
  const files = new Map<string, { content: string; mode: number }>();
  const dirs = new Set<string>();
  return {
    files,
    dirs,
    readText: (path) => Promise.resolve(files.get(path)?.content),
    writeAtomic: (path, content, mode) => {
      // Like mkdir -p: every ancestor folder now exists.
      const separator = path.includes('\\') ? '\\' : '/';
      const parts = path.split(separator);
      for (let index = 1; index < parts.length; index += 1) dirs.add(parts.slice(0, index).join(separator));
      files.set(path, { content, mode });
      return Promise.resolve();
    },
    remove: (path) => Promise.resolve(files.delete(path)),
    removeEmptyDir: (path) => {
      const inside = (other: string): boolean => other.startsWith(`${path}\\`) || other.startsWith(`${path}/`);
      const empty = ![...files.keys()].some(inside) && ![...dirs].some(inside);
      return Promise.resolve(empty && dirs.delete(path));
    },
    probe: (path) => {
      const file = files.get(path);
      if (file) return Promise.resolve({ isFile: true, executable: (file.mode & 0o111) !== 0 || path.endsWith('.bat') });
      return Promise.resolve(dirs.has(path) ? { isFile: false, executable: false } : undefined);
    },
  };
}

/** A fake `reg.exe` over an in-memory HKCU: records every command, answers add, query and delete like the real one. */
export function fakeReg(): { run: CommandRunner; commands: string[][]; keys: Map<string, string> } {
  const keys = new Map<string, string>();
  const commands: string[][] = [];
  const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });
  const missing: CommandResult = { code: 1, stdout: '', stderr: 'ERROR: The system was unable to find the specified registry key or value.' };
  const run: CommandRunner = (command, args) => {
    commands.push([command, ...args]);
    if (command !== 'reg') return Promise.resolve({ code: 1, stdout: '', stderr: `${command}: not found` });
    const [verb, key = ''] = args;
    if (verb === 'add') {
      const value = args[args.indexOf('/d') + 1] ?? '';
      keys.set(key.toLowerCase(), value);
      return Promise.resolve(ok('The operation completed successfully.\r\n'));
    }
    const value = keys.get(key.toLowerCase());
    if (verb === 'query') {
      if (value === undefined) return Promise.resolve(missing);
      return Promise.resolve(ok(`\r\n${key}\r\n    (Default)    REG_SZ    ${value}\r\n\r\n`));
    }
    if (verb === 'delete') {
      if (value === undefined) return Promise.resolve(missing);
      keys.delete(key.toLowerCase());
      return Promise.resolve(ok('The operation completed successfully.\r\n'));
    }
    return Promise.resolve({ code: 1, stdout: '', stderr: `unexpected reg ${verb}` });
  };
  return { run, commands, keys };
}
