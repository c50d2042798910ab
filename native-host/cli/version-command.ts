import { HOST_VERSION } from '../version';

/** `deputy --version`, answered without building the command line: what `commander` prints for it, and no more. */
export function versionCommand(): number {
  process.stdout.write(`${HOST_VERSION}\n`);
  return 0;
}
