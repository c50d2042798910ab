import { useEffect } from 'preact/hooks';
import type { Settings } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';

/**
 * Puts the chosen theme on the page: "system" follows the browser's light or dark preference (the stylesheet's media
 * query), "light" and "dark" hold whatever the system says.
 */
export function applyTheme(theme: Settings['theme']): void {
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
}

/** Applies the saved theme once the page opens (the panel, the popup). */
export function useSavedTheme(client: BackgroundClient): void {
  useEffect(() => {
    client.call('settings.get', {}).then((settings) => applyTheme(settings.theme), () => undefined);
  }, [client]);
}
