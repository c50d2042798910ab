import { describe, expect, it } from 'vitest';
import { decodedViews, secretsIn } from '../../../../shared/agent/secret-match';

const SECRETS = [
  { name: 'card_number', value: '4111 1111 1111 1111' },
  { name: 'password', value: 'Tr0ub4dor&3-horse' },
  { name: 'iban', value: 'DE89 3704 0044 0532 0130 00' },
  { name: 'token', value: 'ghp_R4nd0mT0kenValue1234567890abcdefXYZ' },
];

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/** Every way a page's script might carry a value, as a function of the value. */
const ENCODINGS: Record<string, (value: string) => string> = {
  raw: (v) => v,
  'url-encoded': (v) => encodeURIComponent(v),
  'url-encoded twice': (v) => encodeURIComponent(encodeURIComponent(v)),
  'form-encoded': (v) => new URLSearchParams({ q: v }).toString(),
  base64: (v) => b64(v),
  'base64 url-safe': (v) => b64url(v),
  'base64 of JSON': (v) => b64(JSON.stringify({ data: v, t: 1 })),
  'base64 in a query': (v) => `d=${encodeURIComponent(b64(v))}&x=1`,
  'JSON-escaped': (v) => JSON.stringify({ v: v.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') }).replace(/\\\\/g, '\\'),
  'upper case': (v) => v.toUpperCase(),
  'separators removed': (v) => v.replace(/[^A-Za-z0-9]/g, ''),
  'dashes for separators': (v) => v.replace(/ /g, '-'),
  'lower case, no separators': (v) => v.toLowerCase().replace(/[^a-z0-9]/g, ''),
  hex: (v) => hex(v),
  'HTML entities': (v) => v.split('').map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'base64 of url-encoded': (v) => b64(encodeURIComponent(v)),
};

describe('secretsIn: every secret in every encoding, inside realistic carriers', () => {
  for (const secret of SECRETS) {
    for (const [encoding, encode] of Object.entries(ENCODINGS)) {
      it(`${secret.name} ${encoding}`, () => {
        const carried = encode(secret.value);
        const carriers = [`https://evil.test/c?x=${carried}`, `{"payload":"${carried.replace(/"/g, '\\"')}","n":3}`, `cookie: a=1; s=${carried}`];
        for (const text of carriers) expect(secretsIn(text, SECRETS), `${encoding} in ${text}`).toContain(secret.name);
      });
    }
  }
});

describe('secretsIn: no false alarms on ordinary traffic', () => {
  const ordinary = [
    'https://cdn.test/static/app.4f3a9c.js?v=20240101',
    JSON.stringify({ items: [{ sku: 'MUG-001', qty: 2, price: 12.5 }], total: 25, session: 'c2Vzc2lvbi0xMjM0NQ' }),
    'q=wireless+headphones&page=2&sort=price',
    `data=${Buffer.from('the quick brown fox jumps over the lazy dog '.repeat(20)).toString('base64')}`,
    'order=1234&card_last4=1111&amount=49.99',
  ];
  for (const text of ordinary) {
    it(text.slice(0, 50), () => {
      expect(secretsIn(text, SECRETS)).toEqual([]);
    });
  }

  it('a short secret (a CVV) is compared as written, not as a digit run inside any number', () => {
    const cvv = [{ name: 'cvv', value: '123' }];
    expect(secretsIn('amount=41235', cvv)).toEqual(['cvv']);
    expect(secretsIn('amount=4125', cvv)).toEqual([]);
  });
});

describe('decodedViews', () => {
  it('stops on deep or large inputs (bounded work)', () => {
    let nested = 'Tr0ub4dor&3-horse';
    for (let i = 0; i < 10; i += 1) nested = b64(nested);
    const views = decodedViews(nested);
    expect(views.length).toBeLessThanOrEqual(400);
    const huge = 'QUJD'.repeat(1_000_000);
    const started = Date.now();
    decodedViews(huge);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('secretsIn: a value sent while it is being typed', () => {
  it('knows a long value by its first three fifths, not by a short start', () => {
    const card = [{ name: 'card_number', value: '4111 1111 1111 1111' }];
    expect(secretsIn('k=4111111111', card)).toEqual(['card_number']);
    expect(secretsIn('k=4111 11', card)).toEqual([]);
  });
});
