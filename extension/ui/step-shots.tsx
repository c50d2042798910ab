import { useEffect, useRef, useState } from 'preact/hooks';
import type { StepScreenshot } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';

const src = (shot: StepScreenshot): string => `data:${shot.mediaType};base64,${shot.base64}`;

/**
 * The small image of each step's screenshot, by step, fetched again as steps arrive (`refresh` changes) so the cards
 * of a running task get theirs live.
 */
export function useStepThumbnails(client: BackgroundClient, taskId: string, refresh: string): Map<number, string> {
  const [thumbs, setThumbs] = useState<Map<number, string>>(new Map());
  useEffect(() => {
    let current = true;
    client.call('task.thumbnails', { taskId }).then(
      (shots) => {
        if (current) setThumbs(new Map(shots.map((shot) => [shot.step, src(shot)])));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, taskId, refresh]);
  return thumbs;
}

/** A step card's thumbnail: a button that opens the full screenshot. */
export function StepThumbnail(props: { step: number; src: string; onOpen: (step: number) => void }) {
  return (
    <button type="button" class="step__thumb" data-testid="step-thumbnail" data-step={props.step} onClick={() => props.onOpen(props.step)} aria-label={`Show the page at step ${props.step + 1} full size`}>
      <img src={props.src} alt="" loading="lazy" />
    </button>
  );
}

/**
 * The full screenshot of one step in a modal dialog (Esc or Close returns focus to the thumbnail): it opens fitted to
 * the panel's width, a click on it shows it at its real size (scrolling inside the dialog) and back, and a button opens
 * it in a tab of its own.
 */
export function ScreenshotDialog(props: { client: BackgroundClient; taskId: string; step: number | undefined; onClose: () => void }) {
  const { client, taskId, step } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [shot, setShot] = useState<StepScreenshot | null | undefined>(undefined);
  const [error, setError] = useState('');
  const [full, setFull] = useState(false);
  useEffect(() => {
    setShot(undefined);
    setError('');
    setFull(false);
    if (step === undefined) {
      dialog.current?.close();
      return;
    }
    if (!dialog.current?.open) dialog.current?.showModal();
    client.call('task.screenshot', { taskId, step }).then(setShot, (failure: unknown) => setError(errorMessage(failure)));
  }, [client, taskId, step]);
  const openInTab = (): void => {
    if (!shot) return;
    // A data: address cannot be opened as a top-level page; a blob: address of this extension page can.
    const bytes = Uint8Array.from(atob(shot.base64), (char) => char.charCodeAt(0));
    window.open(URL.createObjectURL(new Blob([bytes], { type: shot.mediaType })), '_blank', 'noopener');
  };
  return (
    <dialog
      ref={dialog}
      class="shot-dialog"
      data-testid="screenshot-dialog"
      aria-labelledby="shot-dialog-title"
      onClose={props.onClose}
      // Esc closes the dialog; it must not also stop the task behind it.
      onKeyDown={(event) => {
        if (event.key === 'Escape') event.stopPropagation();
      }}
    >
      <header class="shot-dialog__head">
        <h2 id="shot-dialog-title" class="section-title">
          {step === undefined ? '' : `The page at step ${step + 1}`}
        </h2>
        <button type="button" class="button button--quiet" data-testid="screenshot-open-tab" disabled={!shot} onClick={openInTab}>
          Open in a tab
        </button>
        <button type="button" class="button button--quiet" data-testid="screenshot-close" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      {shot ? (
        <button
          type="button"
          class={`shot-dialog__zoom${full ? ' shot-dialog__zoom--full' : ''}`}
          data-testid="screenshot-zoom"
          aria-pressed={full}
          title={full ? 'Fit to the panel' : 'Show at full size'}
          onClick={() => setFull(!full)}
        >
          <img class="shot-dialog__image" data-testid="screenshot-full" src={src(shot)} alt={`The page at step ${shot.step + 1}, as Deputy saw it`} />
        </button>
      ) : (
        <p class="muted" role="status">
          {error || (shot === null ? 'This screenshot is no longer kept.' : 'Loading…')}
        </p>
      )}
    </dialog>
  );
}
