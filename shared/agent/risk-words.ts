/**
 * Wording that signals what a control does, in the languages shoppers and account holders meet most. Words are one
 * signal among others (the form's fields, its address, prices near the control): a button worded otherwise is still
 * judged by what it does.
 */

const words = (list: string[]): RegExp => new RegExp(`(?:^|[^\\p{L}])(?:${list.join('|')})(?=$|[^\\p{L}])`, 'iu');
/** For scripts written without spaces between words (Japanese, Chinese, Korean), where a word is any run. */
const anywhere = (list: string[]): RegExp => new RegExp(list.join('|'), 'u');

export const MONEY_WORDS = words([
  'pay', 'pay now', 'buy', 'buy now', 'purchase', 'place (?:my |your |the )?order', 'confirm (?:my |your |the )?(?:order|purchase|payment)',
  'complete (?:my |your |the )?(?:order|purchase|payment|checkout)', 'submit (?:my |your |the )?order', 'order now', 'subscribe', 'donate',
  'transfer', 'send money', 'add funds', 'top up', 'book now', 'upgrade', 'rent now', 'bid', 'charge', 'checkout now', 'start (?:my )?(?:trial|subscription)',
  'kaufen', 'jetzt kaufen', 'bezahlen', 'bestellen', 'kostenpflichtig', 'zahlungspflichtig', 'abonnieren', 'buchen',
  'payer', 'acheter', 'commander', 'valider (?:la|ma) commande', "s'abonner", 'souscrire',
  'pagar', 'comprar', 'realizar pedido', 'confirmar pedido', 'suscribirse', 'suscribirme', 'reservar',
  'acquista', 'paga', 'ordina', 'abbonati', 'betalen', 'kopen', 'bestellen', 'zapłać', 'kupuję', 'kup',
  'оплатить', 'купить', 'заказать', 'подписаться', 'satın al', 'öde',
]);
export const MONEY_WORDS_CJK = anywhere(['注文を確定', '注文する', '購入', '支払', '決済', '申し込', '立即购买', '支付', '购买', '下单', '付款', '订阅', '결제', '구매', '주문하기', '구독']);

export const CART_WORDS = words([
  'add to (?:cart|bag|basket|trolley)', 'add to my (?:cart|bag|basket)', 'in den (?:warenkorb|einkaufswagen)', 'ajouter au panier', 'añadir al carrito',
  'añadir a la cesta', 'agregar al carrito', 'aggiungi al carrello', 'in winkelwagen', 'do koszyka', 'в корзину', 'sepete ekle',
]);
export const CART_WORDS_CJK = anywhere(['カートに入れる', 'カートに追加', '加入购物车', '加入購物車', '장바구니']);

export const ACCOUNT_WORDS = words([
  '(?:delete|close|deactivate|remove|cancel) (?:my |your |the )?account', 'deactivate', 'change (?:my |your )?(?:password|email|e-mail)',
  'reset password', 'cancel (?:my |your )?(?:subscription|membership|plan)', 'sign out of all', 'log out everywhere', 'transfer ownership',
  'konto löschen', 'konto schließen', 'deaktivieren', 'kündigen', 'passwort ändern', 'supprimer (?:mon |le )?compte', 'désactiver',
  'résilier', 'eliminar (?:mi |la )?cuenta', 'desactivar', 'cancelar suscripción', 'darse de baja', 'elimina account', 'disattiva',
  'удалить аккаунт', 'hesabı sil',
]);
export const ACCOUNT_WORDS_CJK = anywhere(['退会', 'アカウント削除', '解約', '注销', '删除账户', '註銷', '회원 탈퇴', '탈퇴']);

export const DELETE_WORDS = words([
  'delete', 'permanently', 'erase', 'destroy', 'cancel order', 'cannot be undone', 'wipe', 'revoke', 'remove permanently',
  'löschen', 'endgültig', 'supprimer', 'définitivement', 'eliminar', 'borrar', 'elimina', 'cancella', 'verwijderen', 'usuń', 'удалить',
]);
export const DELETE_WORDS_CJK = anywhere(['削除', '删除', '刪除', '삭제']);

export const SEND_WORDS = words(['send', 'post', 'reply', 'comment', 'publish', 'share', 'senden', 'envoyer', 'publier', 'enviar', 'publicar', 'invia']);
export const SUBMIT_WORDS = words(['submit', 'save', 'confirm', 'apply', 'sign ?up', 'register', 'log ?in', 'sign ?in', 'finish', 'continue', 'speichern', 'enregistrer', 'guardar', 'salva']);
export const LOGIN_WORDS = words(['log ?in', 'sign ?in', 'anmelden', 'einloggen', 'se connecter', 'connexion', 'iniciar sesión', 'entrar', 'accedi']);

/** An amount of money: "$499", "499 €", "EUR 12.50", "¥3,000", "12,99 zł". */
export const PRICE = /(?:[$€£¥₹₩₽]|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK|PLN|CNY|INR|BRL|MXN)\b|R\$)\s?\d[\d.,\s]*\d?|\d[\d.,]*\s?(?:[$€£¥₹₩₽]|円|元|zł|kr|\b(?:USD|EUR|GBP|CHF|JPY)\b)/;
/** A recurring charge: "/month", "per year", "monatlich", "par mois", "月額". */
export const RECURRING = /\/\s?(?:mo|month|yr|year|week|wk)\b|\bper (?:month|year|week)\b|\b(?:monthly|yearly|annually|weekly)\b|pro (?:Monat|Jahr)|monatlich|jährlich|par (?:mois|an)|mensuel|annuel|al (?:mes|año)|mensual|anual|al mese|月額|毎月|年額|每月|每年|월/i;
export const PLAN_WORDS = /\b(?:plan|premium|pro|subscription|membership|tier|abo(?:nnement)?|suscripción|abbonamento)\b|プラン|会员|套餐/i;

export type UrlKind = 'checkout' | 'account' | 'destructive' | 'login' | null;

const ACCOUNT_PATH = /(?:^|[/_.?=&-])(?:account|accounts|settings|profile|security|preferences|konto|einstellungen|compte|cuenta|perfil|myaccount|my-account)(?:$|[/_.?=&-])/;

/** Whether an address is in a site's account area ("/account/billing" is, though it is also a payment page). */
export function inAccountArea(url: string): boolean {
  try {
    const parsed = new URL(url);
    return ACCOUNT_PATH.test(decodeURIComponent(parsed.pathname).toLowerCase());
  } catch {
    return false;
  }
}

/** What an address says about the page: a checkout or payment step, account settings, a deletion, a login. */
export function urlKind(url: string): UrlKind {
  let path: string;
  try {
    const parsed = new URL(url);
    path = decodeURIComponent(`${parsed.pathname}${parsed.search}`).toLowerCase();
  } catch {
    return null;
  }
  if (/(?:^|[/_.?=&-])(?:delete|destroy|remove|deactivate|close-account|cancel-account)(?:$|[/_.?=&-])/.test(path)) return 'destructive';
  if (/(?:^|[/_.?=&-])(?:checkout|payment|payments|pay|billing|purchase|order-confirm|confirm-order|place-order|subscribe|subscription|kasse|zahlung|bezahlen|paiement|pago|pagamento|commande)(?:$|[/_.?=&-])/.test(path)) return 'checkout';
  if (/(?:^|[/_.?=&-])(?:login|signin|sign-in|sign_in|anmelden|connexion)(?:$|[/_.?=&-])/.test(path)) return 'login';
  if (ACCOUNT_PATH.test(path)) return 'account';
  return null;
}

export function saysMoney(text: string): boolean {
  return MONEY_WORDS.test(text) || MONEY_WORDS_CJK.test(text);
}
export function saysCart(text: string): boolean {
  return CART_WORDS.test(text) || CART_WORDS_CJK.test(text);
}
export function saysAccount(text: string): boolean {
  return ACCOUNT_WORDS.test(text) || ACCOUNT_WORDS_CJK.test(text);
}
export function saysDelete(text: string): boolean {
  return DELETE_WORDS.test(text) || DELETE_WORDS_CJK.test(text);
}
