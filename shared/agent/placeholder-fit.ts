/**
 * Whether a field is the one a placeholder's value belongs in: the card number in a card number field, the password in
 * a password field. Typing a value anywhere else (a card number into a "Notes" box, a password into a chat or a public
 * review) needs the user, whatever the model says.
 */

export interface FieldLike {
  /** The field's accessible name (its label). */
  name: string;
  inputType?: string | undefined;
  autocomplete?: string | undefined;
  /** The `name` attribute, when known. */
  attribute?: string | undefined;
}

interface Kind {
  /** Matches the placeholder's name (without the redacted_ prefix and counter). */
  names: RegExp;
  fits(field: Required<Pick<FieldLike, 'name'>> & { type: string; autocomplete: string; hint: string }): boolean;
}

const KINDS: Kind[] = [
  {
    names: /^(?:card|card_number|credit_card|debit_card|cc|cc_number|card_no)$/,
    fits: (f) => /cc-number/.test(f.autocomplete) || /\b(?:card ?(?:number|no)|cardnumber|ccnum|cc-?number|kartennummer|numéro de carte|número de tarjeta)\b|カード番号|卡号/i.test(f.hint),
  },
  { names: /^(?:cvc|cvv|csc|security_code|card_cvc|card_cvv)$/, fits: (f) => /cc-csc/.test(f.autocomplete) || /\b(?:cvc|cvv|csc|security code|prüfnummer|cryptogramme)\b/i.test(f.hint) },
  { names: /^(?:expiry|card_expiry|expiration|exp|card_exp)$/, fits: (f) => /cc-exp/.test(f.autocomplete) || /\b(?:expir\w*|exp(?:iry)? date|mm ?\/ ?yy|ablauf\w*)\b/i.test(f.hint) },
  { names: /^(?:password|passcode|passphrase|pin|pwd)$/, fits: (f) => f.type === 'password' || /password/.test(f.autocomplete) || (/\bpin\b/i.test(f.hint) && f.type !== 'textarea') },
  { names: /^(?:email|e_mail|email_address|mail)$/, fits: (f) => f.type === 'email' || /(?:^|\s)email$/.test(f.autocomplete) || /\be-?mail\b/i.test(f.hint) },
  { names: /^(?:phone|mobile|telephone|tel|phone_number)$/, fits: (f) => f.type === 'tel' || /(?:^|\s)tel/.test(f.autocomplete) || /\b(?:phone|mobile|telefon|téléphone|teléfono)\b/i.test(f.hint) },
  { names: /^(?:iban|bank_account|account_number)$/, fits: (f) => /\b(?:iban|account number|kontonummer|bank ?account)\b/i.test(f.hint) },
  { names: /^(?:ssn|social_security|tax_id|itin)$/, fits: (f) => /\b(?:ssn|social security|tax id|itin|tin)\b/i.test(f.hint) },
  { names: /^(?:key|token|api_key|access_token|secret)$/, fits: (f) => f.type !== 'textarea' && /\b(?:api ?key|key|token|secret)\b/i.test(f.hint) },
];

/** The kind of a placeholder: `redacted_card_2` is a card, `card_number` (a stored entry) is a card too. */
export function placeholderKind(name: string): string {
  return /^redacted_([a-z]+)_\d+$/.exec(name)?.[1] ?? name;
}

export function fieldFits(placeholder: string, field: FieldLike): boolean {
  const kind = placeholderKind(placeholder);
  const facts = {
    name: field.name,
    type: (field.inputType ?? '').toLowerCase(),
    autocomplete: (field.autocomplete ?? '').toLowerCase(),
    hint: `${field.name} ${field.attribute ?? ''} ${field.autocomplete ?? ''}`.replace(/[_-]/g, ' '),
  };
  const known = KINDS.find((k) => k.names.test(kind));
  if (known) return known.fits(facts);
  // A value the user named themselves (loyalty_number, home_address): the field's label or name says the same words.
  const parts = kind.split('_').filter((part) => part.length >= 3 && !['number', 'the', 'and', 'my'].includes(part));
  const hint = facts.hint.toLowerCase();
  return parts.length > 0 && parts.some((part) => hint.includes(part));
}
