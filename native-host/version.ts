import pkg from '../package.json';

/** The host's version, from package.json at build time. */
export const HOST_VERSION: string = pkg.version;
