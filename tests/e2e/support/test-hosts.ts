import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { HOST_RULES_ENV, LOOPBACK_ONLY_RULES } from '../../../scripts/lib/host-rules';
import { baseArgs, launchWithExtension, type ExtensionBrowser, type LaunchOptions } from '../../../scripts/lib/launch-browser';

/**
 * Only the `*.test` names mapped to this machine, every other name resolved as usual: for a run against a real model
 * provider (npm run bench:safety -- --provider ...), whose address must resolve while the test sites stay local.
 */
export const TEST_NAMES_ONLY_RULES = 'MAP *.test 127.0.0.1';

/**
 * The one name mapping every end-to-end test runs with: any `*.test` host (shop.test, evil.test, models.test) is this
 * machine, so tests reach truly different sites (different origins, different sites for cookies and the policy gate)
 * served on loopback, and every other name fails to resolve, so nothing leaves the machine. 127.0.0.1 and localhost
 * work as they are.
 */
export const TEST_HOST_RULES = `${TEST_NAMES_ONLY_RULES}, ${LOOPBACK_ONLY_RULES}`;

/** The environment for a child process (`npm run task`, the demo) that must resolve names as the tests' browser does. */
export function testHostEnv(): Record<string, string> {
  return { [HOST_RULES_ENV]: TEST_HOST_RULES };
}

/** Chromium flags for tests that launch a browser themselves (with puppeteer or playwright directly). */
export function testBrowserArgs(): string[] {
  return baseArgs({ hostRules: TEST_HOST_RULES });
}

/** Chromium with the built extension, resolving names with the test mapping. */
export function launchTestBrowser(options: Omit<LaunchOptions, 'hostRules'> = {}): Promise<ExtensionBrowser> {
  return launchWithExtension({ ...options, hostRules: TEST_HOST_RULES });
}

/** The address of a loopback server under a test host name, e.g. siteUrl(port, 'shop.test', '/cart'). */
export function siteUrl(port: number, host: string, path = '/'): string {
  return `http://${host}:${port}${path}`;
}

/** A loopback port that nothing listens on (bound once, then released): a site or model server that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
