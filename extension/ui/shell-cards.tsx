import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShellRunRecord } from '../../shared/protocol';
import { useCardSend } from './use-card-send';

/** OpenSSH's first-connect question: the key's fingerprint, and Trust or Cancel. */
export function HostKeyCard(props: { hostKey: NonNullable<ShellRunRecord['hostKey']>; onAnswer: (trust: boolean) => Promise<unknown> }) {
  const { hostKey } = props;
  const { sending, error, send } = useCardSend(hostKey.id);
  const answer = (trust: boolean): void => send(() => props.onAnswer(trust));
  return (
    <section class="card approval" role="region" aria-label="Unknown host key" data-testid="hostkey-card">
      <h3 class="approval__title">Trust this server?</h3>
      <p class="shell-card__text">
        The authenticity of {hostKey.host}:{hostKey.port} can't be established. Check its key with the server's owner before you trust it.
      </p>
      <p class="shell-fingerprint" data-testid="hostkey-fingerprint">
        {hostKey.keyType} {hostKey.fingerprint}
      </p>
      <p class="hint">Trusting adds the key to {hostKey.knownHostsFile}, as ssh does.</p>
      <div class="button-row">
        <button type="button" class="button" data-testid="hostkey-trust" disabled={sending} onClick={() => answer(true)}>
          Trust and connect
        </button>
        <button type="button" class="button button--quiet" data-testid="hostkey-cancel" disabled={sending} onClick={() => answer(false)}>
          Cancel
        </button>
      </div>
      <p class="form-error" role="alert">
        {error}
      </p>
    </section>
  );
}

/** A password a command (sudo) or SSH asks for: typed by the user, sent to the host only, never shown to the model. */
export function SecretCard(props: { secret: NonNullable<ShellRunRecord['secret']>; onAnswer: (text: string | null) => Promise<unknown> }) {
  const [value, setValue] = useState('');
  const box = useRef<HTMLInputElement>(null);
  const card = useCardSend(props.secret.id, () => setValue(''));
  useEffect(() => box.current?.focus(), [props.secret.id]);
  const { sending, error } = card;
  const send = (text: string | null): void => card.send(() => props.onAnswer(text));
  return (
    <form
      class="card approval"
      aria-label="Password needed"
      data-testid="secret-card"
      onSubmit={(event) => {
        event.preventDefault();
        if (value !== '') send(value);
      }}
    >
      <h3 class="approval__title">Password needed</h3>
      <label class="shell-card__text" for={`secret-${props.secret.id}`}>
        {props.secret.prompt}
      </label>
      <input ref={box} id={`secret-${props.secret.id}`} type="password" autocomplete="off" class="composer__input" data-testid="secret-input" value={value} onInput={(event) => setValue(event.currentTarget.value)} />
      <p class="hint">It goes to the command only: the model never sees it, and it is not logged.</p>
      <div class="button-row">
        <button type="submit" class="button" data-testid="secret-send" disabled={sending || value === ''}>
          Send
        </button>
        <button type="button" class="button button--quiet" data-testid="secret-cancel" disabled={sending} onClick={() => send(null)}>
          Don't give it
        </button>
      </div>
      <p class="form-error" role="alert">
        {error}
      </p>
    </form>
  );
}
