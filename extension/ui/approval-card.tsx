import { useEffect, useRef } from 'preact/hooks';
import { RiskClass } from '../../shared/agent/risk-class';
import type { ApprovalDecision, PendingApproval } from '../../shared/protocol';
import { approveLabel, hostLabel, isRiskyApproval, placeOf } from './approval-wording';
import { plainText } from './step-wording';
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
  program: 'keeps a program on this computer',
  commitment: 'agrees for you',
};

/**
 * Classes every step has (reading, acting on the page): a chip for them says nothing the card's reason does not, and
 * on a shell or desktop card "acts on the page" would be wrong. The chips name only what makes a step special.
 */
const QUIET_CLASSES = new Set(['read', 'act']);
// A chip whose words the reason already says is left out, and so is the consequence unless it names where the step
// goes or what it sends: the card gives one reason once ("spends money" three ways was the same reason three times).

export function riskLabel(riskClass: string): string {
  return CLASS_LABELS[riskClass] ?? riskClass;
}

/**
 * A pending approval: exactly what will happen, where, where it sends the user or their data and what goes there, and
 * why it needs the user. The intent is already redacted (personal data as {{placeholders}}).
 *
 * The buttons are weighted by the risk. For a low-risk step Approve takes the focus, so the keyboard alone can answer.
 * For a step that spends money, changes the account, cannot be undone, agrees for the user or sends data elsewhere,
 * Reject is the neutral default with the focus, Approve names the exact consequence ("Pay $499 on shop.example"), and
 * Enter never approves it (Space or a click does, on purpose). "Approve for <site>" shows only where the background
 * offers it: for a low-risk step, approving its destination for this task; `allowSite` false hides it everywhere (a
 * desktop task). `alwaysLabel` puts another standing approval in its place (a shell task's "Always allow commands
 * starting with …"), answered as approve_site.
 */
export function ApprovalCard(props: {
  approval: PendingApproval;
  allowSite?: boolean;
  alwaysLabel?: string;
  onDecide: (decision: ApprovalDecision) => Promise<unknown>;
  /** Outlines the element the step is about on the page again. */
  onShowOnPage?: () => void;
}) {
  const { approval } = props;
  const risky = isRiskyApproval(approval);
  const approveButton = useRef<HTMLButtonElement>(null);
  const rejectButton = useRef<HTMLButtonElement>(null);
  const { sending, error, send } = useCardSend(approval.id);
  useEffect(() => (risky ? rejectButton : approveButton).current?.focus(), [approval.id]);
  const decide = (decision: ApprovalDecision): void => send(() => props.onDecide(decision));
  const site = approval.siteApproval ? hostLabel(approval.siteApproval) : null;
  const destination = approval.destination ? hostLabel(approval.destination) : null;
  const titleId = `approval-${approval.id}`;
  const keyHint = `approval-key-${approval.id}`;
  return (
    <section class={`card approval${risky ? ' approval--risky' : ''}`} role="region" aria-labelledby={titleId} data-testid="approval-card" data-approval-id={approval.id} data-risky={String(risky)}>
      <h3 id={titleId} class="approval__title">
        {risky ? 'Check this step before it happens' : 'Approve this step?'}
      </h3>
      {approval.warning ? (
        <p class="approval__warning" role="alert" data-testid="approval-warning">
          {approval.warning}
        </p>
      ) : null}
      <p class="approval__intent" data-testid="approval-intent">
        {plainText(approval.intent)}
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
              .filter((c) => !QUIET_CLASSES.has(c) && !approval.reason.toLowerCase().includes(riskLabel(c)))
              .map((c) => (
                <li key={c} class={`chip chip--${c}`} data-testid="approval-class">
                  {riskLabel(c)}
                </li>
              ))}
          </ul>
          {approval.consequence && (approval.destination || approval.sends) ? (
            <p class="approval__consequence" data-testid="approval-consequence">
              {approval.consequence}
            </p>
          ) : null}
          <p class="approval__reason" data-testid="approval-reason">
            {approval.reason}
          </p>
        </dd>
      </dl>
      {props.onShowOnPage ? (
        <p class="approval__show">
          <button type="button" class="link-button" data-testid="approval-show" onClick={props.onShowOnPage}>
            Show it on the page
          </button>{' '}
          <span class="hint">(outlined in orange while this waits)</span>
        </p>
      ) : null}
      {approval.intent.includes('{{') ? (
        <p class="hint">Personal data is shown as {'{{placeholders}}'}; Deputy types the real values itself.</p>
      ) : null}
      <div class="button-row">
        <button
          ref={rejectButton}
          type="button"
          class="button button--neutral"
          data-testid="reject"
          disabled={sending}
          onClick={() => decide('reject')}
        >
          Reject
        </button>
        <button
          ref={approveButton}
          type="button"
          class={risky ? 'button button--commit' : 'button'}
          data-testid="approve"
          disabled={sending}
          aria-describedby={risky ? keyHint : undefined}
          onKeyDown={(event) => {
            // A stray Enter (meant for the task box, or pressed twice) must not spend money or delete an account.
            if (risky && event.key === 'Enter') event.preventDefault();
          }}
          onClick={() => decide('approve')}
        >
          {approveLabel(approval)}
        </button>
        {props.alwaysLabel !== undefined ? (
          <button type="button" class="button button--quiet" data-testid="approve-site" disabled={sending} onClick={() => decide('approve_site')}>
            {props.alwaysLabel}
          </button>
        ) : props.allowSite === false || site === null || risky ? null : (
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
      {risky ? (
        <p id={keyHint} class="hint" data-testid="approval-key-hint">
          Enter does not approve this step: click the button or press Space on it.
        </p>
      ) : null}
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
