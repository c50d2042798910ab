import type { Linter } from 'eslint';

export declare const boundaries: Linter.Config[];
/** The floors of extension/background/: for each folder, the sibling folders it may not import. */
export declare const backgroundFloors: Record<string, readonly string[]>;
