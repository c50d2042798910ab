import { AppError } from '../../shared/errors';
import { FormChannel, RpcClient, type FormFill, type FormFillResult } from '../../shared/protocol';
import type { Logger } from '../log/logger';

/** Loading the page and sending the form, on top of the time the page may take to confirm it. */
const FILL_MARGIN_MS = 90_000;

type Client = 'extension' | 'cli' | 'test';

/**
 * The host's requests to the extension on the other end of its stdio: the reverse direction of every other method.
 * Replies come in on stdin like requests do; the router hands them here. Only a browser can fill a form, so the link
 * works once the peer said hello as the extension (or as a test standing in for it).
 */
export interface ExtensionLink {
  /** Wires the host's frame writer; called by runHost. */
  attach(send: (message: unknown) => void): void;
  /** Offers an incoming message: true when it was the reply to one of the host's requests. */
  receive(message: unknown): boolean;
  /** Who said hello on this connection. */
  setClient(client: Client): void;
  fillForm: (request: FormFill, signal: AbortSignal | undefined) => Promise<FormFillResult>;
  /** The connection is closing: pending requests fail at once. */
  close(): void;
}

export function createExtensionLink(deps: { log: Logger }): ExtensionLink {
  let send: ((message: unknown) => void) | undefined;
  let client: Client | undefined;
  const rpc = new RpcClient(FormChannel, {
    send: (message) => {
      if (!send) throw new AppError('disconnected', 'The host is not connected to a browser');
      send(message);
    },
    timeoutMs: FILL_MARGIN_MS,
    idPrefix: 'host',
  });
  return {
    attach(writer) {
      send = writer;
    },
    receive: (message) => rpc.receive(message),
    setClient(next) {
      client = next;
    },
    fillForm: async (request, signal) => {
      if (client !== 'extension' && client !== 'test') {
        throw new AppError('unavailable', `A web form can only be filled by Deputy's extension, and this host is talking to ${client === 'cli' ? 'a command line' : 'nothing yet'}: start the loop from the side panel`);
      }
      deps.log.info('form.fill', { url: request.url, fields: Object.keys(request.fields).length });
      const call = rpc.call('form.fill', request, { timeoutMs: request.timeoutSeconds * 1000 + FILL_MARGIN_MS });
      if (!signal) return call;
      // A stop request ends the wait; the browser's fill goes on to its end and its late reply is dropped.
      return Promise.race([
        call,
        new Promise<never>((_, reject) => {
          const stop = (): void => reject(new AppError('cancelled', 'Stopped while the form was being filled'));
          if (signal.aborted) stop();
          else signal.addEventListener('abort', stop, { once: true });
        }),
      ]);
    },
    close() {
      send = undefined;
      rpc.rejectAll(new AppError('disconnected', 'The browser disconnected while filling the form'));
    },
  };
}
