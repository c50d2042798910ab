import { describe, expect, it } from 'vitest';
import { detectFormat, parseCheckOutput } from '../../../../native-host/loop/parse-check-output';
import { parseJunitXml } from '../../../../native-host/loop/parse-junit';

const TAP = `TAP version 13
# Subtest: prices
ok 1 - totals add up
not ok 2 - applies the discount
  ---
  duration_ms: 1.2
  message: 'expected 90 to equal 80'
  at: 'test/prices.test.js:14:5'
  ...
not ok 3 - rounds to cents # TODO not yet
not ok 4 - skipped on CI # SKIP
not ok 5
1..5
`;

const VITEST = `
 RUN  v4.1.12 /srv/service

 ❯ src/cart.test.ts (3 tests | 2 failed) 12ms
   ✓ cart > adds an item 1ms
   × cart > removes an item 5ms
     → expected [ 'apple' ] to deeply equal []
   × cart > totals 2ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/cart.test.ts > cart > removes an item
AssertionError: expected [ 'apple' ] to deeply equal []
 ❯ src/cart.test.ts:14:20

⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  src/cart.test.ts > cart > totals
TypeError: Cannot read properties of undefined (reading 'price')
 ❯ src/cart.ts:8:14

 FAIL  src/broken.test.ts [ src/broken.test.ts ]
Error: Failed to load url ./missing (resolved id: ./missing) in /srv/service/src/broken.test.ts. Does the file exist?

 Test Files  2 failed (2)
      Tests  2 failed | 1 passed (3)
`;

const JEST = `FAIL src/sum.test.js
  sum
    ✓ adds 1 + 2 to equal 3 (2 ms)
    ✕ adds negative numbers (3 ms)

  ● sum › adds negative numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: -3
    Received: 3

FAIL src/config.test.js
  ● Test suite failed to run

    Cannot find module './settings' from 'src/config.test.js'

Test Suites: 2 failed, 2 total
Tests:       1 failed, 1 passed, 2 total
`;

const PYTEST = `============================= test session starts ==============================
collected 3 items / 1 error

tests/test_prices.py .F                                                  [100%]

=================================== FAILURES ===================================
___________________________________ test_discount ______________________________
E       assert 90 == 80
=========================== short test summary info ============================
FAILED tests/test_prices.py::test_discount - assert 90 == 80
ERROR tests/test_import.py - ModuleNotFoundError: No module named 'billing'
==================== 1 failed, 1 passed, 1 error in 0.12s =====================
`;

const JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="service" tests="3" failures="1" errors="1">
  <testsuite name="prices" tests="3" file="test/prices.test.js">
    <testcase classname="prices" name="totals add up" time="0.01"/>
    <testcase classname="prices" name="applies the discount" time="0.02">
      <failure message="expected 90 to equal 80" type="AssertionError">AssertionError: expected 90 to equal 80
    at test/prices.test.js:14:5</failure>
    </testcase>
    <testcase classname="db" name="connects">
      <error type="Error">connect ECONNREFUSED 127.0.0.1:5432</error>
    </testcase>
  </testsuite>
</testsuites>`;

describe('parseCheckOutput', () => {
  it('reads TAP failures with their YAML message and ignores TODO and SKIP', () => {
    expect(parseCheckOutput(TAP, 'auto')).toEqual({
      format: 'tap',
      failures: [
        { id: 'applies the discount', message: 'expected 90 to equal 80', severity: 'failure', file: "'test/prices.test.js:14:5'" },
        { id: 'test 5', message: 'not ok', severity: 'failure' },
      ],
    });
  });

  it('reads vitest failures, including a file that could not load', () => {
    const parsed = parseCheckOutput(VITEST, 'auto');
    expect(parsed.format).toBe('vitest');
    expect(parsed.failures).toEqual([
      { id: 'src/cart.test.ts > cart > removes an item', message: "AssertionError: expected [ 'apple' ] to deeply equal []", severity: 'failure', file: 'src/cart.test.ts' },
      { id: 'src/cart.test.ts > cart > totals', message: "TypeError: Cannot read properties of undefined (reading 'price')", severity: 'failure', file: 'src/cart.test.ts' },
      { id: 'src/broken.test.ts', message: expect.stringContaining('Failed to load url ./missing') as string, severity: 'error', file: 'src/broken.test.ts' },
    ]);
  });

  it('reads jest failures and suites that failed to run', () => {
    const parsed = parseCheckOutput(JEST, 'auto');
    expect(parsed.format).toBe('jest');
    expect(parsed.failures).toEqual([
      { id: 'src/sum.test.js > sum > adds negative numbers', message: 'expect(received).toBe(expected) // Object.is equality', severity: 'failure', file: 'src/sum.test.js' },
      { id: 'src/config.test.js > Test suite failed to run', message: "Cannot find module './settings' from 'src/config.test.js'", severity: 'error', file: 'src/config.test.js' },
    ]);
  });

  it('reads the pytest short summary', () => {
    expect(parseCheckOutput(PYTEST, 'auto')).toEqual({
      format: 'pytest',
      failures: [
        { id: 'tests/test_prices.py::test_discount', message: 'assert 90 == 80', severity: 'failure', file: 'tests/test_prices.py' },
        { id: 'tests/test_import.py', message: "ModuleNotFoundError: No module named 'billing'", severity: 'error', file: 'tests/test_import.py' },
      ],
    });
  });

  it('reads JUnit XML from the output or from a report file', () => {
    const expected = [
      { id: 'prices > applies the discount', message: 'expected 90 to equal 80', severity: 'failure', file: 'test/prices.test.js' },
      { id: 'db > connects', message: 'connect ECONNREFUSED 127.0.0.1:5432', severity: 'error', file: 'test/prices.test.js' },
    ];
    expect(parseCheckOutput(JUNIT, 'auto')).toEqual({ format: 'junit', failures: expect.arrayContaining(expected) as unknown });
    expect(parseCheckOutput('3 tests, 1 failure', 'auto', JUNIT).failures).toHaveLength(2);
    expect(parseJunitXml('<testsuites><testsuite name="a"><testcase name="x"><failure>')[0]?.severity).toBe('error');
  });

  it('falls back to the tail of unstructured output, without colour codes', () => {
    const lines = Array.from({ length: 100 }, (_, index) => `line ${index}`);
    const parsed = parseCheckOutput(`\u001b[31m${lines.join('\n')}\u001b[0m\n`, 'auto');
    expect(parsed.format).toBe('text');
    expect(parsed.failures).toHaveLength(1);
    expect(parsed.failures[0]?.message.startsWith('line 40\n')).toBe(true);
    expect(parsed.failures[0]?.message).not.toContain('\u001b');
    expect(parseCheckOutput('  \n', 'text').failures).toEqual([]);
  });

  it('honours an explicit format', () => {
    expect(parseCheckOutput(PYTEST, 'text').format).toBe('text');
    expect(detectFormat('Error: the deploy manifest is missing')).toBe('text');
  });
});
