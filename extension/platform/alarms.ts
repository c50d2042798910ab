import { browser } from './browser';

/**
 * Alarms: the browser wakes the worker at a time even when it was stopped. They may not survive a browser restart, so
 * whoever sets them also reconciles them from its own records at start.
 */
export async function setAlarm(name: string, when: number): Promise<void> {
  await browser.alarms.create(name, { when });
}

export async function alarmNames(prefix: string): Promise<string[]> {
  return (await browser.alarms.getAll()).map((alarm) => alarm.name).filter((name) => name.startsWith(prefix));
}

export async function clearAlarm(name: string): Promise<void> {
  await browser.alarms.clear(name);
}

export function onAlarm(listener: (name: string) => void): void {
  browser.alarms.onAlarm.addListener((alarm) => listener(alarm.name));
}
