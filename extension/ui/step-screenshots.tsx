import { useEffect, useState } from 'preact/hooks';
import type { StepScreenshot } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';

/**
 * The screenshot kept with each step of a finished web task, as a strip of thumbnails in the history; a click shows
 * one at full width below the strip, and a second click hides it again.
 */
export function StepScreenshots(props: { client: BackgroundClient; taskId: string }) {
  const { client, taskId } = props;
  const [shots, setShots] = useState<StepScreenshot[] | undefined>(undefined);
  const [shown, setShown] = useState<number | undefined>(undefined);
  useEffect(() => {
    setShots(undefined);
    setShown(undefined);
    client.call('task.screenshots', { taskId }).then(setShots, () => setShots([]));
  }, [client, taskId]);
  if (!shots || shots.length === 0) return null;
  const open = shots.find((shot) => shot.step === shown);
  const src = (shot: StepScreenshot): string => `data:${shot.mediaType};base64,${shot.base64}`;
  return (
    <section class="shots" aria-label="Screenshots" data-testid="step-screenshots">
      <h3 class="section-title">Screenshots ({shots.length})</h3>
      <ol class="shots__list">
        {shots.map((shot) => (
          <li key={shot.step}>
            <button
              type="button"
              class="shots__thumb"
              data-testid="step-screenshot"
              aria-pressed={shot.step === shown}
              onClick={() => setShown(shot.step === shown ? undefined : shot.step)}
            >
              <img src={src(shot)} alt={`The page at step ${shot.step + 1}`} loading="lazy" />
              <span>Step {shot.step + 1}</span>
            </button>
          </li>
        ))}
      </ol>
      {open ? <img class="shots__full" data-testid="step-screenshot-full" src={src(open)} alt={`The page at step ${open.step + 1}, full size`} /> : null}
    </section>
  );
}
