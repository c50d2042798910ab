import { describe, expect, it } from 'vitest';
import { LOOPBACK_ONLY_RULES, hostRulesFromEnv, lookupWithRules, mapHost, parseHostRules } from '../../../../scripts/lib/host-rules';

const TEST_RULES = `MAP *.test 127.0.0.1, ${LOOPBACK_ONLY_RULES}`;

function lookup(rules: string | undefined, host: string): Promise<{ error?: string; address?: string }> {
  return new Promise((resolve) => {
    lookupWithRules(rules)(host, { all: true }, (error, address) => {
      if (error) resolve({ error: error.code ?? error.message });
      else resolve({ address: Array.isArray(address) ? address[0]?.address : address });
    });
  });
}

describe('host rules (tests only)', () => {
  it('maps names the way Chromium does: EXCLUDE first, then the first matching MAP', () => {
    const rules = parseHostRules(TEST_RULES);
    expect(mapHost(rules, 'shop.test')).toBe('127.0.0.1');
    expect(mapHost(rules, 'models.TEST')).toBe('127.0.0.1');
    expect(mapHost(rules, 'api.openai.com')).toBe('notfound');
    expect(mapHost(rules, 'localhost')).toBeNull();
    expect(mapHost(rules, '127.0.0.1')).toBeNull();
    expect(mapHost(parseHostRules('MAP shop.test 10.0.0.7:8080'), 'shop.test')).toBe('10.0.0.7');
  });

  it('resolves for Node as the browser would: mapped names reach loopback, the rest fail to resolve', async () => {
    expect(await lookup(TEST_RULES, 'models.test')).toEqual({ address: '127.0.0.1' });
    expect(await lookup(TEST_RULES, 'example.com')).toEqual({ error: 'ENOTFOUND' });
    expect(await lookup(TEST_RULES, 'localhost')).toHaveProperty('address');
  });

  it('is off unless DEPUTY_HOST_RULES is set, and refuses rules it cannot read instead of guessing', () => {
    expect(hostRulesFromEnv({})).toBeUndefined();
    expect(hostRulesFromEnv({ DEPUTY_HOST_RULES: ' ' })).toBeUndefined();
    expect(hostRulesFromEnv({ DEPUTY_HOST_RULES: TEST_RULES })).toBe(TEST_RULES);
    expect(() => parseHostRules('MAP *.test')).toThrow(/cannot read the rule "MAP \*\.test"/);
  });
});
