import { z } from 'zod';
import type { DesktopAction } from '../../shared/protocol';

/**
 * Pattern lists that block desktop actions. A pattern is a case-insensitive piece of text, or a regular expression
 * written between slashes ("/^root@/i"). URL patterns match the host name, with "*" standing for any characters.
 */
export const DesktopPolicy = z.object({
  blockedApps: z
    .array(z.string().min(1))
    .default([
      '/^(system settings|system preferences|settings|control panel|registry editor)\\b/i',
      'gnome-control-center',
      '/\\broot@/i',
      '/^administrator:/i',
      '/\\bonline banking\\b/i',
      '/\\bbank\\b/i',
    ])
    .describe('Window titles no action may touch: system settings, terminals as admin, banking.'),
  blockedCommands: z
    .array(z.string().min(1))
    .default([
      '/(^|[\\s;&|])sudo\\s/',
      '/(^|[\\s;&|])su\\s+(-|root)/',
      '/\\brm\\s+-[a-z]*[rf][a-z]*\\s+(\\/|~)/i',
      '/\\bmkfs(\\.|\\s)/',
      '/\\bdd\\s+if=/',
      '/\\b(shutdown|reboot|poweroff|halt)\\b/',
      '/\\bformat\\s+[a-z]:/i',
      '/\\bset-executionpolicy\\b/i',
      '/\\breg\\s+(delete|add)\\b/i',
      '/:\\(\\)\\s*\\{/',
    ])
    .describe('Commands that may not be typed anywhere.'),
  blockedUrls: z
    .array(z.string().min(1))
    .default(['*bank*', 'paypal.com', '*.paypal.com'])
    .describe('Sites whose addresses may not be typed.'),
});
export type DesktopPolicy = z.infer<typeof DesktopPolicy>;
export type DesktopPolicyInput = z.input<typeof DesktopPolicy>;

export type PolicyCheck = { allowed: true } | { allowed: false; reason: string };

function toRegex(pattern: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/.exec(pattern);
  if (literal) return new RegExp(literal[1] ?? '', (literal[2] ?? '').replace(/[gy]/g, ''));
  return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

function hostGlob(pattern: string): RegExp {
  const body = pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${body}$`);
}

/** Host names of the web addresses in a piece of text: full URLs and bare "example.com/path" forms. */
export function hostsIn(text: string): string[] {
  const hosts: string[] = [];
  for (const match of text.matchAll(/\b(?:[a-z][a-z0-9+.-]*:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?=[/?#\s]|$)/gi)) {
    if (match[1]) hosts.push(match[1].toLowerCase());
  }
  return hosts;
}

/** Checks a pattern list once at load time, so a bad regular expression is reported when configured, not mid-task. */
export function validatePolicy(policy: DesktopPolicy): void {
  for (const pattern of [...policy.blockedApps, ...policy.blockedCommands]) toRegex(pattern);
}

/**
 * Decides whether an action may run, given the focused window's title. Typed text is checked for blocked commands and
 * addresses; every action is refused while a blocked application has the focus, since even a click there can change
 * system settings or move money. Waiting is always allowed.
 */
export function checkDesktopAction(policy: DesktopPolicy, action: DesktopAction, windowTitle: string | undefined): PolicyCheck {
  if (action.kind === 'wait') return { allowed: true };
  if (windowTitle !== undefined) {
    const app = policy.blockedApps.find((pattern) => toRegex(pattern).test(windowTitle));
    if (app !== undefined) {
      return { allowed: false, reason: `The focused window "${windowTitle.slice(0, 80)}" is on the blocked list (${app}); desktop actions are not allowed there.` };
    }
  }
  if (action.kind !== 'type') return { allowed: true };
  const command = policy.blockedCommands.find((pattern) => toRegex(pattern).test(action.text));
  if (command !== undefined) return { allowed: false, reason: `The text contains a blocked command (${command}); it was not typed.` };
  for (const host of hostsIn(action.text)) {
    const url = policy.blockedUrls.find((pattern) => hostGlob(pattern).test(host));
    if (url !== undefined) return { allowed: false, reason: `The text contains the address of a blocked site (${host} matches ${url}); it was not typed.` };
  }
  return { allowed: true };
}
