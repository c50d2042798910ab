import { useEffect, useState } from 'preact/hooks';
import type { BackgroundClient } from './background-client';
import type { SavedSettings } from './settings-form';

/** The saved settings, read once per mount (undefined while loading or if they cannot be read), and a way to replace them. */
export function useSavedSettings(client: BackgroundClient): [SavedSettings | undefined, (next: SavedSettings) => void] {
  const [settings, setSettings] = useState<SavedSettings | undefined>(undefined);
  useEffect(() => {
    client.call('settings.get', {}).then(setSettings, () => undefined);
  }, [client]);
  return [settings, setSettings];
}
