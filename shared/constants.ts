/**
 * Identity of the product, shared by the extension, the native host and the scripts.
 *
 * The manifest pins EXTENSION_PUBLIC_KEY, so every unpacked copy of Deputy gets the same extension id and the
 * native host's `allowed_origins` can name it. The id is derived from the key (SHA-256 of the DER public key, first
 * 32 hex digits mapped 0-f to a-p); tests/unit/shared/constants.test.ts checks the two agree.
 */
export const PRODUCT_NAME = 'Deputy';

export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2v0F+lJQ6k4F7MJQTuswMnVnyn2raZqB9++yeSBbce1wmhzAJT5lIgf/z7rEfNMAgpHopBEpou8f6+nKuPwbLeJq4kNMik3NdSuU2pPN7qgMJjHfI70OK7MQuzymc2/Furh02y8QQU7U9FhBbTGJfCTyuzWj9dE3dmPSY6Z7ETeW0vU8FfsdTcj8FrBQ8OgwQilpx/ml90uKy7WxEehIFQTdCBywB9ifeEx5mb827r/0LWOERl2tk8UAjrYeCU3yOo9HFFK68Nsfb8MR5gkaMc+1mZNXeo9YU3U1axWjfkdXxc6gvo/GpYWpBY6uboA/qcFzXlcVVpF4eQa5EMOb8wIDAQAB';

export const EXTENSION_ID = 'iflppjigbdmbeacfohhgbfikdaaamjod';

export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}/`;

/** The native-messaging host name: lowercase letters, digits, dots and underscores only. */
export const NATIVE_HOST_NAME = 'dev.deputy.host';

/** Bumped whenever a message on the background <-> host channel changes shape incompatibly. */
export const PROTOCOL_VERSION = 1;

/** Chrome refuses a single native message to the browser larger than 1 MB. */
export const MAX_MESSAGE_TO_BROWSER_BYTES = 1024 * 1024;

/** Chrome sends at most 64 MiB to the host; anything larger is a corrupt length. */
export const MAX_MESSAGE_FROM_BROWSER_BYTES = 64 * 1024 * 1024;

/** The command that registers the host, shown wherever the host is missing. */
export const HOST_INSTALL_COMMAND = 'npm run host:install';
/** The same for Deputy installed as a package (`npm install -g`): its `deputy` command is on the PATH. */
export const GLOBAL_HOST_INSTALL_COMMAND = 'deputy install';
