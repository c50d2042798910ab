export type GoalTemplateId = 'refund' | 'cancel' | 'order_status' | 'complaint' | 'custom';

export const GOAL_TEMPLATES: { id: GoalTemplateId; label: string }[] = [
  { id: 'refund', label: 'Refund' },
  { id: 'cancel', label: 'Cancel' },
  { id: 'order_status', label: 'Order status' },
  { id: 'complaint', label: 'Complaint' },
  { id: 'custom', label: 'Custom' },
];

const TEXTS: Record<GoalTemplateId, string> = {
  refund: 'Ask for a full refund for order [order number] because [reason]. Accept a refund to the original payment method; ask me before accepting anything else.',
  cancel: 'Cancel my [subscription or order] [number]. Do not accept a retention offer without asking me.',
  order_status: 'Find out where order [order number] is and when it will arrive.',
  complaint: 'Make a complaint about [what went wrong] and ask what they will do about it.',
  custom: '',
};

/** The goal a template puts in the box, with [brackets] where the user fills in their details. */
export function goalText(id: GoalTemplateId): string {
  return TEXTS[id];
}
