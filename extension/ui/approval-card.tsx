import { useEffect, useRef } from 'preact/hooks';
import { RiskClass } from '../../shared/agent/risk-class';
import type { ApprovalDecision, PendingApproval } from '../../shared/protocol';
import { useCardSend } from './use-card-send';

const CLASS_LABELS: Record<string, string> = {
  read: 'reads',
  act: 'acts on the page',
  navigate: 'opens a page',
  submit: 'submits a form',
  'send-message': 'sends a message',
  money: 'spends money',
  account: 'changes your account',
  irreversible: 'cannot be undone',
  commitment: 'agrees for you',
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
 * A pending approval: exactly what will happen, where, where it sends the user or their data and what goes there, and
 * why it needs the user. The intent is already redacted (personal data as {{placeholders}}). The Approve button takes
 * focus so the keyboard alone can answer. "Approve for <site>" shows only where the background offers it: for a
 * low-risk step, approving its destination for this task; `allowSite` false hides it everywhere (a desktop task).
 * `alwaysLabel` puts another standing approval in its place (a shell task's "Always allow commands starting with …"),
 * answered as approve_site.
 */
export function ApprovalCard(props: { approval: PendingApproval; allowSite?: boolean; alwaysLabel?: string; onDecide: (decision: ApprovalDecision) => Promise<unknown> }) {
  const { approval } = props;
  const first = useRef<HTMLButtonElement>(null);
  const { sending, error, send } = useCardSend(approval.id);
  useEffect(() => first.current?.focus(), [approval.id]);
  const decide = (decision: ApprovalDecision): void => send(() => props.onDecide(decision));
  const site = approval.siteApproval ? (placeOf(approval.siteApproval).split('/')[0] ?? approval.siteApproval) : null;
  const destination = approval.destination ? (placeOf(approval.destination).split('/')[0] ?? approval.destination) : null;
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
        {destination ? (
          <>
            <dt>Goes to</dt>
            <dd data-testid="approval-destination">
              <strong>{destination}</strong>
              {approval.sends ? (
                <span data-testid="approval-sends">
                  {' '}
                  ({approval.sends.method.toUpperCase()}
                  {approval.sends.fields.length > 0 ? `: ${approval.sends.fields.slice(0, 12).join(', ')}` : ''})
                </span>
              ) : null}
            </dd>
          </>
        ) : null}
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
          {approval.consequence ? (
            <p class="approval__consequence" data-testid="approval-consequence">
              {approval.consequence}
            </p>
          ) : null}
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
        {props.alwaysLabel !== undefined ? (
          <button type="button" class="button button--quiet" data-testid="approve-site" disabled={sending} onClick={() => decide('approve_site')}>
            {props.alwaysLabel}
          </button>
        ) : props.allowSite === false || site === null ? null : (
          <button
            type="button"
            class="button button--quiet"
            data-testid="approve-site"
            title={`Also allow the next low-risk steps on ${site} in this task (Settings adds a site for every task)`}
            disabled={sending}
            onClick={() => decide('approve_site')}
          >
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

/**
 * The card's view of an approval a host-side run waits on (a desktop or shell task): its classes read back from the
 * event (unknown ones dropped, and those `hide` names, which say nothing there), at the place `url` names.
 */
export function hostRunApproval(
  approval: { id: string; intent: string; reason: string; classes: string[]; askedAt: number },
  where: { tool: string; url: string; hide?: RiskClass[] },
): PendingApproval {
  return {
    id: approval.id,
    step: 0,
    callId: approval.id,
    tool: where.tool,
    intent: approval.intent,
    classes: approval.classes.flatMap((c) => {
      const known = RiskClass.safeParse(c);
      return known.success && !(where.hide ?? []).includes(known.data) ? [known.data] : [];
    }),
    reason: approval.reason,
    url: where.url,
    askedAt: approval.askedAt,
  };
}
