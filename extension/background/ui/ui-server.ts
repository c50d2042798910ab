import type { Logger } from '../../../shared/logger';
import { UiChannel, serveRequest, type ChannelHandlers, type UiMethods } from '../../../shared/protocol';
import type { RuntimePort } from '../../platform/runtime';

export type UiHandlers = ChannelHandlers<UiMethods>;

export type UiEventName = keyof UiChannel['events'] & string;

/**
 * Serves the side panel and popup over runtime ports named "ui". Only the extension's own pages may connect: a port
 * from anywhere else is closed before it can send anything.
 */
export class UiServer {
  private readonly ports = new Set<RuntimePort>();

  constructor(
    private readonly handlers: UiHandlers,
    private readonly isPrivileged: (port: RuntimePort) => boolean,
    private readonly log: Logger,
  ) {}

  get connectedCount(): number {
    return this.ports.size;
  }

  accept(port: RuntimePort): void {
    if (port.name !== 'ui') return;
    if (!this.isPrivileged(port)) {
      this.log.warn('refused ui port from unprivileged sender', { url: port.sender?.url?.slice(0, 80) });
      port.disconnect();
      return;
    }
    this.ports.add(port);
    port.onDisconnect(() => this.ports.delete(port));
    port.onMessage((message) => void this.handle(port, message));
  }

  broadcast<E extends UiEventName>(event: E, data: unknown): void {
    for (const port of this.ports) {
      try {
        port.post({ kind: 'event', event, data });
      } catch {
        this.ports.delete(port);
      }
    }
  }

  private async handle(port: RuntimePort, message: unknown): Promise<void> {
    const reply = await serveRequest(UiChannel, this.handlers, message);
    try {
      port.post(reply);
    } catch {
      // The page closed while we were answering; nothing to do.
    }
  }
}
