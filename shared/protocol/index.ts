export * from './channel';
export * from './host-channel';
export * from './desktop-protocol';
export * from './content-channel';
export * from './ui-channel';
export * from './chat-protocol';
export * from './rpc-client';
export * from './chunks';
