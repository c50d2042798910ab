import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalDecision, PendingApproval } from '../../shared/protocol';
import { errorMessage } from './error-message';

const CLASS_LABELS: Record<string, string> = {
  read: 'reads',
  act: 'acts on the page',
  navigate: 'opens a page',
  submit: 'submits a form',
  'send-message': 'sends a message',
  money: 'spends money',
  account: 'changes your account',
  irreversible: 'cannot be undone',
  program: 'keeps a program on this computer',
};

export function riskLabel(riskClass: string): string {
  return CLASS_LABELS[riskClass] ?? riskClass;
}

/** Where the action happens, short enough for the narrow panel: host and path, without the query. */
export function placeOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}

/**
 * A pending approval: exactly what will happen, where, and why it needs the user. The intent is already redacted
 * (personal data as {{placeholders}}). The Approve button takes focus so the keyboard alone can answer. `allowSite`
 * false hides "Approve for <site>" where there is no site to trust (a desktop task).
 */
export function ApprovalCard(props: { approval: PendingApproval; allowSite?: boolean; onDecide: (decision: ApprovalDecision) => Promise<unknown> }) {
  const { approval } = props;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setSending(false);
    setError('');
    first.current?.focus();
  }, [approval.id]);

  const decide = (decision: ApprovalDecision): void => {
    setSending(true);
    props.onDecide(decision).catch((failure: unknown) => {
      setSending(false);
      setError(errorMessage(failure));
    });
  };
  const site = placeOf(approval.url).split('/')[0] ?? approval.url;
  const titleId = `approval-${approval.id}`;
  return (
    <section class="card approval" role="region" aria-labelledby={titleId} data-testid="approval-card" data-approval-id={approval.id}>
      <h3 id={titleId} class="approval__title">
        Approve this step?
      </h3>
      <p class="approval__intent" data-testid="approval-intent">
        {approval.intent}
      </p>
      <dl class="approval__facts">
        <dt>Where</dt>
        <dd data-testid="approval-where">{placeOf(approval.url)}</dd>
        <dt>Why</dt>
        <dd>
          <ul class="chips" aria-label="Risk">
            {approval.classes
              .filter((c) => c !== 'read')
              .map((c) => (
                <li key={c} class={`chip chip--${c}`} data-testid="approval-class">
                  {riskLabel(c)}
                </li>
              ))}
          </ul>
          <p class="approval__reason" data-testid="approval-reason">
            {approval.reason}
          </p>
        </dd>
      </dl>
      {approval.intent.includes('{{') ? (
        <p class="hint">Personal data is shown as {'{{placeholders}}'}; Deputy types the real values itself.</p>
      ) : null}
      <div class="button-row">
        <button ref={first} type="button" class="button" data-testid="approve" disabled={sending} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="button button--danger" data-testid="reject" disabled={sending} onClick={() => decide('reject')}>
          Reject
        </button>
        {props.allowSite === false ? null : (
          <button type="button" class="button button--quiet" data-testid="approve-site" disabled={sending} onClick={() => decide('approve_site')}>
            Approve for {site}
          </button>
        )}
      </div>
      <p class="form-error" role="alert">
        {error}
      </p>
    </section>
  );
}
