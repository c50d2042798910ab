import type { BackgroundClient } from './background-client';
import { ConnectModelCard } from './connect-model-card';
import { useSavedSettings } from './use-saved-settings';

/**
 * Where a view needs a model and none is connected yet, the card that connects one (provider presets, key, Test) comes
 * first, in that view: nobody has to find Settings before their first task, chat or desktop run.
 */
export function ModelNeeded(props: { client: BackgroundClient }) {
  const [settings, setSettings] = useSavedSettings(props.client);
  if (settings === undefined || settings.provider !== null) return null;
  return <ConnectModelCard client={props.client} saved={settings} onSaved={setSettings} />;
}
