import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { z } from 'zod';
import type { HostStatus } from '../../shared/protocol';
import { LoopEvent, type LoopSnapshot } from '../../shared/protocol/loop-protocol';
import { chromeStore } from '../platform/storage';
import type { BackgroundClient } from '../ui/background-client';
import { errorMessage } from '../ui/error-message';
import { HostStatusLine } from '../ui/host-status-line';
import { LoopDefinitionForm } from '../ui/loop-definition-form';
import { LoopDescribeBox } from '../ui/loop-describe-box';
import { configFromForm, EMPTY_LOOP_FORM, errorsFromHost, LOOP_FORM_KEY, LoopForm, offersResume, resumableLoop, type LoopFormErrors } from '../ui/loop-form';
import { IterationList, LoopStatus } from '../ui/loop-progress';
import { mergeEvents, reduceLoop } from '../ui/loop-view-model';
import { useNow } from '../ui/use-now';
import '../ui/loop.css';

const LAST_LOOP_KEY = 'loopLastId';
const MAX_LIVE_EVENTS = 1000;

/**
 * The fix loop for developers: a definition form, Start / Resume, the live status and iterations of the loop the host
 * runs, and Stop. Opened mid-loop it finds the running loop with `loop.status` and its earlier events in the
 * background's log (`loop.log`), then follows `loop.event` live.
 */
export function LoopView(props: { client: BackgroundClient; hostStatus: HostStatus | undefined }) {
  const { client } = props;
  const store = useMemo(() => chromeStore('local'), []);
  const connected = props.hostStatus?.state === 'connected';
  const [form, setForm] = useState<LoopForm | undefined>(undefined);
  const [errors, setErrors] = useState<LoopFormErrors>({});
  const [busy, setBusy] = useState<'starting' | 'stopping' | undefined>(undefined);
  const [loops, setLoops] = useState<LoopSnapshot[]>([]);
  const [loopId, setLoopId] = useState<string | undefined>(undefined);
  const [snapshot, setSnapshot] = useState<LoopSnapshot | undefined>(undefined);
  const [logged, setLogged] = useState<LoopEvent[]>([]);
  const [resumeOffered, setResumeOffered] = useState(false);
  const live = useRef(new Map<string, LoopEvent[]>());
  const [liveTick, setLiveTick] = useState(0);

  useEffect(() => {
    store.get(LOOP_FORM_KEY, LoopForm).then(
      (saved) => setForm(saved ?? EMPTY_LOOP_FORM),
      () => setForm(EMPTY_LOOP_FORM),
    );
  }, [store]);

  const refreshSnapshot = (id: string): void => {
    client.call('loop.status', { loopId: id }).then(
      ({ loops: found }) => {
        const next = found[0];
        if (next) setSnapshot(next);
      },
      () => undefined,
    );
  };

  const refreshList = (): void => {
    client.call('loop.status', {}).then(({ loops: found }) => setLoops(found), () => undefined);
  };

  // Events arrive for every loop the host runs, also before loop.start has answered with the new loop's id.
  useEffect(
    () =>
      client.onEvent((event, data) => {
        if (event !== 'loop.event') return;
        const parsed = LoopEvent.safeParse(data);
        if (!parsed.success) return;
        const list = live.current.get(parsed.data.loopId) ?? [];
        list.push(parsed.data);
        if (list.length > MAX_LIVE_EVENTS) list.shift();
        live.current.set(parsed.data.loopId, list);
        setLiveTick((tick) => tick + 1);
        if (parsed.data.type === 'step.finished' || parsed.data.type === 'loop.finished') refreshSnapshot(parsed.data.loopId);
        if (parsed.data.type === 'loop.finished') refreshList();
      }),
    [client],
  );

  // On open, on every reconnect and once the host is connected: find the running loop, else the last one shown here.
  useEffect(() => {
    if (!connected) return undefined;
    const load = (): void => {
      Promise.all([client.call('loop.status', {}), store.get(LAST_LOOP_KEY, z.string())]).then(
        ([{ loops: found }, lastId]) => {
          setLoops(found);
          const chosen = found.find((loop) => loop.running) ?? found.find((loop) => loop.loopId === lastId);
          if (chosen) {
            setSnapshot(chosen);
            setLoopId(chosen.loopId);
          }
        },
        (failure: unknown) => setErrors({ form: errorMessage(failure) }),
      );
    };
    load();
    return client.onConnect(load);
  }, [client, store, connected]);

  useEffect(() => {
    if (!loopId) return;
    client.call('loop.log', { loopId }).then(({ events }) => setLogged(events), () => setLogged([]));
  }, [client, loopId]);

  const events = useMemo(() => (loopId ? mergeEvents(logged, live.current.get(loopId) ?? []) : []), [logged, loopId, liveTick]);
  const view = loopId ? reduceLoop(loopId, events, snapshot?.loopId === loopId ? snapshot : undefined) : undefined;
  const running = view?.running === true;
  const now = useNow(running);

  if (!form) return <p class="muted">Loading…</p>;
  const resumable = resumableLoop(loops, form.repo);

  const show = (next: LoopSnapshot): void => {
    setSnapshot(next);
    // A resumed loop keeps its id: its logged events stay, the new ones arrive live.
    if (next.loopId !== loopId) setLogged([]);
    setLoopId(next.loopId);
    void store.set(LAST_LOOP_KEY, next.loopId);
  };

  /** new: a fresh loop; resume: continue the saved one; restart: set the saved one aside and start the form's. */
  const start = (mode: 'new' | 'resume' | 'restart'): void => {
    const resume = mode === 'resume';
    const result = configFromForm(form);
    if (!result.ok && !resume) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setBusy('starting');
    void store.set(LOOP_FORM_KEY, form);
    const config = resume ? { repo: form.repo.trim() } : result.ok ? result.config : {};
    client.call('loop.start', { config, resume, restart: mode === 'restart' }).then(
      (started) => {
        setBusy(undefined);
        setResumeOffered(false);
        show(started);
      },
      (failure: unknown) => {
        setBusy(undefined);
        const message = errorMessage(failure);
        setErrors(errorsFromHost(message));
        setResumeOffered(offersResume(message));
      },
    );
  };

  const stop = (): void => {
    if (!loopId) return;
    setBusy('stopping');
    client.call('loop.stop', { loopId }).then(
      (stopped) => {
        setBusy(undefined);
        setSnapshot(stopped);
        refreshList();
      },
      (failure: unknown) => {
        setBusy(undefined);
        setErrors({ form: errorMessage(failure) });
      },
    );
  };

  return (
    <section class="loop" data-testid="loop-view" aria-label="Fix loop">
      <HostStatusLine status={props.hostStatus} feature="Fix loops" onRetry={() => void client.call('host.reconnect', {})} />
      {running && view ? (
        <>
          <LoopStatus view={view} now={now} />
          <div class="button-row">
            <button type="button" class="button button--danger" data-testid="loop-stop" disabled={busy === 'stopping'} onClick={stop}>
              {busy === 'stopping' ? 'Stopping…' : 'Stop'}
            </button>
          </div>
          {errors.form ? (
            <p class="form-error" role="alert" data-testid="loop-form-error">
              {errors.form}
            </p>
          ) : null}
          <IterationList iterations={view.iterations} now={now} />
        </>
      ) : (
        <>
          {view ? (
            <>
              <LoopStatus view={view} now={now} />
              <IterationList iterations={view.iterations} now={now} />
              <h2 class="section-title">New loop</h2>
            </>
          ) : null}
          <LoopDescribeBox client={client} repo={form.repo} disabled={!connected || busy !== undefined} onStarted={show} />
          <LoopDefinitionForm form={form} errors={errors} disabled={busy !== undefined} onChange={(change) => setForm({ ...form, ...change })} onSubmit={() => start('new')}>
            <div class="button-row">
              <button type="submit" class="button" data-testid="loop-start" disabled={!connected || busy !== undefined}>
                {busy === 'starting' ? 'Starting…' : 'Start'}
              </button>
              {resumeOffered || resumable ? (
                <>
                  <button type="button" class="button button--quiet" data-testid="loop-resume" disabled={!connected || busy !== undefined} onClick={() => start('resume')}>
                    Resume
                  </button>
                  <button type="button" class="button button--quiet" data-testid="loop-restart" disabled={!connected || busy !== undefined} onClick={() => start('restart')}>
                    Discard it and start
                  </button>
                </>
              ) : null}
            </div>
            {resumable ? (
              <p class="hint" data-testid="loop-resume-hint">
                An unfinished loop on this repository stopped at iteration {resumable.iteration}, step {resumable.step}: Resume continues it without repeating a commit,
                a push or a paid fixer run; Discard sets its state aside and starts the definition above.
              </p>
            ) : null}
          </LoopDefinitionForm>
        </>
      )}
    </section>
  );
}
