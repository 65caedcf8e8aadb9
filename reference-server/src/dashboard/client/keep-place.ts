/**
 * A section that re-renders a list (webhooks.ts a few seconds after "Send test event", webhook-endpoint.ts after
 * Resend) would drop the keyboard focus of whoever stood on one of its controls, so their next Enter did nothing,
 * and close every disclosure they had opened. `keepingPlace` notes which control had the focus (by its row's key
 * attribute and its own text) and which rows' disclosures were open, renders, and restores both on the new rows.
 */
export function keepingPlace(list: HTMLElement, key: string, render: () => void): void {
  const rowOf = (node: Element): string | null => node.closest('[' + key + ']')?.getAttribute(key) ?? null;
  const active = document.activeElement;
  const focused =
    active instanceof HTMLElement && list.contains(active) ? { row: rowOf(active), tag: active.tagName, text: active.textContent } : null;
  const open = new Set(Array.from(list.querySelectorAll('details[open]'), rowOf));
  render();
  const row = (value: string | null): Element | null =>
    value === null ? list : list.querySelector('[' + key + '="' + CSS.escape(value) + '"]');
  for (const value of open) row(value)?.querySelector('details')?.setAttribute('open', '');
  if (!focused) return;
  const same = Array.from(row(focused.row)?.querySelectorAll<HTMLElement>(focused.tag) ?? []).find((n) => n.textContent === focused.text);
  same?.focus();
}
