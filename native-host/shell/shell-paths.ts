import { join } from 'node:path';
import { appPaths, type PathEnv } from '../paths';

/**
 * Where shell sessions and the user's shell rules live: Deputy's data folder (`shell/<session>/` with log.jsonl and
 * session.json, and shell-rules.json), unless DEPUTY_SHELL_DIR or DEPUTY_SHELL_RULES name other places.
 */
export function shellPaths(pathEnv: PathEnv): { sessionsRoot: string; rulesFile: string } {
  const data = appPaths(pathEnv).dataDir;
  return {
    sessionsRoot: pathEnv.env.DEPUTY_SHELL_DIR || join(data, 'shell'),
    rulesFile: pathEnv.env.DEPUTY_SHELL_RULES || join(data, 'shell-rules.json'),
  };
}
