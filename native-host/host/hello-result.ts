import { PROTOCOL_VERSION } from '../../shared/constants';
import type { HelloParams, HelloResult } from '../../shared/protocol/hello-protocol';

/** What a host says of itself in its answer to hello: which services it was started with. */
export interface HelloFacts {
  version: string;
  platform: string;
  pid: number;
  desktop: boolean;
  shell: boolean;
  mcp: boolean;
}

/** The answer to hello, the same whether the host gives it before its code is loaded or after (see early-hello.ts). */
export function helloResult(facts: HelloFacts, params: HelloParams): HelloResult {
  return {
    hostVersion: facts.version,
    protocolVersion: PROTOCOL_VERSION,
    compatible: params.protocolVersion === PROTOCOL_VERSION,
    platform: facts.platform,
    pid: facts.pid,
    capabilities: [
      'ping',
      ...(facts.desktop ? ['desktop'] : []),
      ...(facts.shell ? ['shell'] : []),
      ...(facts.mcp ? ['mcp'] : []),
    ],
  };
}
