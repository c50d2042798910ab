import type { ESLint, Linter } from 'eslint';

export declare const cyclesPlugin: ESLint.Plugin;
export declare const cycles: Linter.Config[];
