const dayMs = 86_400_000;

export function windowMs(days: number): number {
  return days * dayMs;
}

/**
 * spec/rules.md "Attribution rules", window check on sale: the click must be at most the window older than the customer's
 * signup, or than the payment when no signup was recorded. Not checked once a conversion is recorded.
 */
export function saleWithinWindow(
  customer: { clicked_at: number | null; lead_at: number | null; converted_at: number | null },
  occurredAt: number,
  windowDays: number,
): boolean {
  if (customer.converted_at !== null || customer.clicked_at === null) return true;
  const reference = customer.lead_at ?? occurredAt;
  return reference - customer.clicked_at <= windowMs(windowDays);
}

/** First click wins only while the first click is inside the window (spec/openapi.yaml `ClickRequest.click_id`). */
export function clickStillAttributes(clickedAt: number | null, now: number, windowDays: number): boolean {
  return clickedAt !== null && now - clickedAt <= windowMs(windowDays);
}
