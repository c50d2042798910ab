/**
 * Unit tests run in Node, where webextension-polyfill refuses to load ("This script should only be loaded in a
 * browser extension"). Modules that import the platform layer only for types or for functions a test never calls
 * get this instead: any use of the browser API here is a test bug, and says so.
 */
const browser: unknown = new Proxy(
  {},
  {
    get(_target, name) {
      throw new Error(`browser.${String(name)} is not available in unit tests: pass a fake to the code under test`);
    },
  },
);
export default browser;
