import { effectiveWords, simpleCommands } from './command-words';

/** Top-level folders whose recursive removal wrecks a system or a home. */
const CRITICAL_PATH = /^(\/+|\/\*|~\/?|~\/\*|\$\{?HOME\}?\/?(\*)?|\/(bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|run|sbin|srv|sys|usr|var|Users|System|Applications|Library)\/?(\*)?|\*|\.\/?\*?|\.\.\/?)$/;
const BLOCK_DEVICE = /^(\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/|loop|rdisk)|\\\\\.\\PhysicalDrive)/i;

interface Check {
  reason: string;
  test(words: string[], base: string): boolean;
}

const flags = (words: string[]): string => words.filter((w) => /^-[A-Za-z]/.test(w)).map((w) => w.slice(1)).join('');
const has = (words: string[], ...options: string[]): boolean => words.some((w) => options.includes(w));

const CHECKS: Check[] = [
  {
    reason: 'it removes a whole system or home folder recursively',
    test: (words, base) => {
      if (base !== 'rm') return false;
      const short = flags(words);
      const recursive = /[rR]/.test(short) || has(words, '--recursive');
      const targets = words.slice(1).filter((w) => !w.startsWith('-'));
      return has(words, '--no-preserve-root') || (recursive && targets.some((t) => CRITICAL_PATH.test(t)));
    },
  },
  {
    reason: 'it formats or repartitions a disk',
    test: (words, base) =>
      /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard|format|diskpart)$/i.test(base) ||
      (base === 'cryptsetup' && words.some((w) => /^luksFormat$/i.test(w))) ||
      (base === 'diskutil' && words.some((w) => /^(erase|partition|zero|secureErase)/i.test(w))) ||
      (base === 'zpool' && has(words, 'destroy', 'create')) ||
      /^(lvremove|vgremove|pvremove)$/.test(base),
  },
  {
    reason: 'it writes over a disk device',
    test: (words, base) =>
      (base === 'dd' && words.some((w) => w.startsWith('of=') && BLOCK_DEVICE.test(w.slice(3)))) ||
      (base === 'shred' && words.some((w) => BLOCK_DEVICE.test(w))),
  },
  {
    reason: 'it rewrites version-control history or throws away work',
    test: (words, base) => {
      if (base !== 'git') return false;
      const sub = words.slice(1).find((w) => !w.startsWith('-'));
      const args = words.slice(words.indexOf(sub ?? '') + 1);
      switch (sub) {
        case 'push':
          return has(args, '--force', '-f', '--force-with-lease', '--mirror', '--delete', '-d') || args.some((a) => /^--force-with-lease=|^\+|^:/.test(a));
        case 'reset':
          return has(args, '--hard', '--merge', '--keep');
        case 'rebase':
        case 'filter-branch':
        case 'filter-repo':
          return true;
        case 'commit':
          return has(args, '--amend');
        case 'clean':
          return /f/.test(flags(args)) || has(args, '--force');
        case 'branch':
          return has(args, '-D') || (has(args, '-d', '--delete') && has(args, '--force', '-f'));
        case 'reflog':
          return has(args, 'expire', 'delete');
        case 'update-ref':
          return has(args, '-d');
        case 'checkout':
        case 'restore':
          return args.includes('--') || has(args, '.', '-f', '--force');
        case 'stash':
          return has(args, 'clear', 'drop');
        default:
          return false;
      }
    },
  },
  {
    reason: 'it shuts down, restarts or suspends the machine',
    test: (words, base) =>
      /^(shutdown|reboot|halt|poweroff|kexec)$/.test(base) ||
      ((base === 'init' || base === 'telinit') && has(words, '0', '6')) ||
      (base === 'systemctl' && has(words, 'poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'emergency', 'rescue')) ||
      (base === 'kill' && (words.slice(1).includes('1') || words.join(' ').includes('-- -1'))) ||
      base === 'killall5' ||
      (base === 'Stop-Computer' || base === 'Restart-Computer'),
  },
  {
    reason: 'it changes permissions or owners of a whole system or home folder',
    test: (words, base) => (base === 'chmod' || base === 'chown' || base === 'chgrp') && (/R/.test(flags(words)) || has(words, '--recursive')) && words.slice(1).some((w) => CRITICAL_PATH.test(w) && w !== '.' && w !== './'),
  },
  {
    reason: 'it deletes a database',
    test: (words, base) => /^(dropdb|dropuser)$/.test(base) || words.some((w) => /\bdrop\s+(database|schema)\b/i.test(w)),
  },
  {
    reason: "it removes the user's crontab",
    test: (words, base) => base === 'crontab' && has(words, '-r'),
  },
];

/**
 * Why a command is destructive, or undefined. Destructive commands (recursive removal of system or home folders, disk
 * formatting and overwrites, history rewrites, shutting the machine down, ...) always wait for the user, whatever the
 * mode, the rules or a validator say. Each simple command of a line is judged by what it really runs (`sudo` and the
 * like stripped), so `cd / && sudo rm -rf *` is caught.
 */
export function destructiveReason(command: string): string | undefined {
  if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(command)) return 'it is a fork bomb, which makes the machine unusable';
  if (/>\s*\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk)\w*/.test(command)) return 'it writes over a disk device';
  for (const part of simpleCommands(command)) {
    const words = effectiveWords(part);
    const base = (words[0] ?? '').replace(/^.*\//, '');
    if (base === '') continue;
    const found = CHECKS.find((check) => check.test(words, base));
    if (found) return found.reason;
  }
  return undefined;
}
