import { z } from 'zod';

/**
 * What a tool call can do to the world, from harmless to most serious. A tool declares its base class; the policy gate
 * refines it from the arguments (a click on "Place order" is money, not just act).
 */
export const RiskClass = z.enum([
  'read',
  'act',
  'navigate',
  'submit',
  'send-message',
  'money',
  'account',
  'irreversible',
  /** It agrees to something for the user: accepting an offer, choosing what the other side proposed. */
  'commitment',
]);
export type RiskClass = z.infer<typeof RiskClass>;

/** Classes that stop for the user even when the task runs without asking. */
export const ALWAYS_ASK_CLASSES: ReadonlySet<RiskClass> = new Set(['money', 'account', 'irreversible', 'commitment']);

/** A tool call of this class changes nothing outside the agent, so repeating it after a crash is harmless. */
export function isSideEffectFree(risk: RiskClass): boolean {
  return risk === 'read';
}
