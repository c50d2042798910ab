import { isAbsolute, relative, sep } from 'node:path';
import type { LoopStep } from '../../shared/protocol/loop-protocol';
import { documentDefinitionFiles } from './check-definition';
import { GUIDANCE_FILES } from './guidance-files';
import type { LoopContext } from './loop-context';
import { firstStep, type LoopState } from './loop-state';
import { outputFolder, type ExternalDeps } from './trigger-output';

/**
 * The guard rules of a loop: its configured paths plus the guidance files (AGENTS.md, CLAUDE.md), which the fixer reads but may not edit, and
 * in document mode the template and rules it is judged by.
 */
export function guardRules(state: LoopState) {
  const { config } = state;
  return {
    protectedPaths: [...new Set([...config.protectedPaths, config.guidanceFile, ...GUIDANCE_FILES, ...documentDefinitionFiles(state.repo, config.document)])],
    allowedPaths: config.allowedPaths,
    fabricationPatterns: config.fabricationPatterns,
  };
}

export function nextIteration(context: LoopContext): void {
  const { state } = context;
  state.iteration += 1;
  state.step = firstStep(state, state.iteration);
}

export function afterPush(state: LoopState): LoopStep | undefined {
  const { deploy } = state.config;
  if (deploy.healthUrl !== undefined || deploy.waitSeconds > 0) return 'deploy';
  if (state.config.logs) return 'logs';
  return undefined;
}

/** The line in each commit message that ties it to one iteration of one loop, so a resume can recognise it. */
export function trailer(state: LoopState): string {
  return `Deputy-Loop: ${state.loopId} iteration ${state.iteration}`;
}

export function externalDeps(context: LoopContext): ExternalDeps {
  const { deps } = context;
  return { run: deps.run, fetch: deps.fetch, now: deps.now, sleep: deps.sleep, signal: deps.signal, env: deps.env, ...(deps.fillForm ? { fillForm: deps.fillForm } : {}) };
}

/**
 * What is never part of a fix: the files the job and the check wrote (by name), and, when the job writes its output
 * into a folder inside the repo, every file there matching the output pattern (the fixer may run the job too).
 */
export function keptOut(state: LoopState): { paths: string[]; globs: string[] } {
  const output = state.config.output;
  const globs: string[] = [];
  if (output && 'folder' in output) {
    const folder = relative(state.repo, outputFolder(output, state.repo));
    if (!folder.startsWith('..') && !isAbsolute(folder)) globs.push(folder ? `${folder.split(sep).join('/')}/${output.pattern}` : output.pattern);
  }
  return { paths: state.checkArtifacts ?? [], globs };
}

