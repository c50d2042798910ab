import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/**
 * The environment variable through which tests map host names for both the browser and the CLI's own checks. It is
 * for tests only: a product run resolves names the ordinary way, and nothing in the README tells users to set it.
 */
export const HOST_RULES_ENV = 'DEPUTY_HOST_RULES';

/** A rule of Chromium's `--host-resolver-rules`: `MAP pattern target` (target `~NOTFOUND` refuses) or `EXCLUDE pattern`. */
type HostRule = { kind: 'map'; pattern: RegExp; target: string } | { kind: 'exclude'; pattern: RegExp };

function globToRegExp(glob: string): RegExp {
  const escaped = glob.toLowerCase().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/**
 * Parses the subset of Chromium's host resolver rules that tests use, so Node resolves names exactly as the browser
 * started with the same rules does. Anything else is an error rather than a silent difference between the two.
 */
export function parseHostRules(text: string): HostRule[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const words = part.split(/\s+/);
      const [verb, pattern, target] = words;
      if (verb?.toUpperCase() === 'MAP' && pattern && target && words.length === 3) return { kind: 'map', pattern: globToRegExp(pattern), target };
      if (verb?.toUpperCase() === 'EXCLUDE' && pattern && words.length === 2) return { kind: 'exclude', pattern: globToRegExp(pattern) };
      throw new Error(`${HOST_RULES_ENV}: cannot read the rule "${part}" (write "MAP *.test 127.0.0.1" or "EXCLUDE localhost")`);
    });
}

/**
 * What the rules make of a host name: an address, `notfound`, or null when no rule applies (resolve it normally).
 * As in Chromium, an EXCLUDE anywhere wins over every MAP, and the first matching MAP is used.
 */
export function mapHost(rules: readonly HostRule[], host: string): string | 'notfound' | null {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (rules.some((rule) => rule.kind === 'exclude' && rule.pattern.test(name))) return null;
  const rule = rules.find((candidate) => candidate.kind === 'map' && candidate.pattern.test(name));
  if (!rule || rule.kind !== 'map') return null;
  if (rule.target === '~NOTFOUND') return 'notfound';
  return rule.target.replace(/:\d+$/, '');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http requests that applies the rules first, so a check made from Node reaches the same place
 * as the browser would. Without rules it is the ordinary DNS lookup.
 */
export function lookupWithRules(rulesText: string | undefined): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  const rules = rulesText ? parseHostRules(rulesText) : [];
  return (hostname, options, callback) => {
    const mapped = mapHost(rules, hostname);
    if (mapped === 'notfound') {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    const target = mapped ?? hostname;
    const family = isIP(target);
    if (family !== 0) {
      if (options.all) callback(null, [{ address: target, family }]);
      else callback(null, target, family);
      return;
    }
    dnsLookup(target, options, callback as never);
  };
}

/** The rules a run was given through the environment (tests only), or undefined. */
export function hostRulesFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const rules = env[HOST_RULES_ENV]?.trim();
  if (!rules) return undefined;
  parseHostRules(rules);
  return rules;
}

/**
 * Every name but loopback fails to resolve: for the benchmark and the tests, whose saved real pages must never reach
 * the network. Never a product default.
 */
export const LOOPBACK_ONLY_RULES = 'MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost';
