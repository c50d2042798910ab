import { createHash, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EXTENSION_ID, EXTENSION_ORIGIN, EXTENSION_PUBLIC_KEY, NATIVE_HOST_NAME } from '../../../shared/constants';

describe('the pinned extension identity', () => {
  it('derives the extension id from the pinned key the way Chrome does', () => {
    const der = Buffer.from(EXTENSION_PUBLIC_KEY, 'base64');
    const hex = createHash('sha256').update(der).digest('hex').slice(0, 32);
    const id = [...hex].map((digit) => String.fromCharCode('a'.charCodeAt(0) + parseInt(digit, 16))).join('');
    expect(id).toBe(EXTENSION_ID);
    expect(EXTENSION_ORIGIN).toBe(`chrome-extension://${EXTENSION_ID}/`);
  });

  it('pins a real RSA public key', () => {
    const key = createPublicKey({ key: Buffer.from(EXTENSION_PUBLIC_KEY, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
  });

  it('names the host the way native messaging requires', () => {
    expect(NATIVE_HOST_NAME).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
  });
});
