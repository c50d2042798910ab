import { PROTOCOL_VERSION } from '../../shared/constants';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from './router';

export interface HostInfo {
  version: string;
  platform: string;
  pid: number;
  now: () => number;
}

/** The host's built-in methods. Feature modules (desktop, fix loop, shell) add theirs beside these. */
export function hostHandlers(info: HostInfo): Handlers<HostMethods> {
  return {
    hello: (params) => ({
      hostVersion: info.version,
      protocolVersion: PROTOCOL_VERSION,
      compatible: params.protocolVersion === PROTOCOL_VERSION,
      platform: info.platform,
      pid: info.pid,
      capabilities: ['ping'],
    }),
    ping: (params) => (params.echo === undefined ? { time: info.now() } : { time: info.now(), echo: params.echo }),
  };
}
