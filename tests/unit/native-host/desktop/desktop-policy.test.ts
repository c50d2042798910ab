import { describe, expect, it } from 'vitest';
import { DesktopPolicy, checkDesktopAction, hostsIn } from '../../../../native-host/desktop/desktop-policy';

const defaults = DesktopPolicy.parse({});
const type = (text: string) => ({ kind: 'type' as const, text });
const click = { kind: 'click' as const, x: 1, y: 1 };

describe('checkDesktopAction with the default lists', () => {
  it('refuses every action while system settings, an admin terminal or a bank has the focus', () => {
    for (const title of ['Settings', 'System Preferences', 'root@box: ~', 'Administrator: Windows PowerShell', 'Chase Online Banking - Chromium']) {
      const verdict = checkDesktopAction(defaults, click, title);
      expect(verdict.allowed, title).toBe(false);
    }
    expect(checkDesktopAction(defaults, click, 'notes.txt - Text Editor').allowed).toBe(true);
  });

  it('lets waiting happen anywhere', () => {
    expect(checkDesktopAction(defaults, { kind: 'wait', seconds: 1 }, 'Settings').allowed).toBe(true);
  });

  it('refuses typing blocked commands, with the pattern in the reason', () => {
    for (const text of ['sudo apt remove x', 'cd /; rm -rf /', 'mkfs.ext4 /dev/sda1', 'shutdown -h now', 'format c:']) {
      const verdict = checkDesktopAction(defaults, type(text), 'Terminal');
      expect(verdict.allowed, text).toBe(false);
      expect(!verdict.allowed && verdict.reason).toMatch(/blocked command/);
    }
    expect(checkDesktopAction(defaults, type('ls -la'), 'Terminal').allowed).toBe(true);
    expect(checkDesktopAction(defaults, type('pseudo code'), 'Editor').allowed).toBe(true);
  });

  it('refuses typing the address of a blocked site', () => {
    const verdict = checkDesktopAction(defaults, type('https://www.mybank.com/login'), 'New Tab');
    expect(!verdict.allowed && verdict.reason).toMatch(/www\.mybank\.com matches \*bank\*/);
    expect(checkDesktopAction(defaults, type('paypal.com/send'), 'New Tab').allowed).toBe(false);
    expect(checkDesktopAction(defaults, type('https://example.org/'), 'New Tab').allowed).toBe(true);
  });
});

describe('a configured policy', () => {
  it('replaces a default list and understands plain text and /regex/ patterns', () => {
    const policy = DesktopPolicy.parse({ blockedApps: ['Spreadsheet', '/^secret/i'] });
    expect(checkDesktopAction(policy, click, 'Budget - Spreadsheet').allowed).toBe(false);
    expect(checkDesktopAction(policy, click, 'SECRET plans').allowed).toBe(false);
    expect(checkDesktopAction(policy, click, 'Settings').allowed).toBe(true);
  });
});

describe('hostsIn', () => {
  it('finds full URLs and bare host names', () => {
    expect(hostsIn('go to https://A.example.com:8080/x and shop.test/cart')).toEqual(['a.example.com', 'shop.test']);
  });
});
