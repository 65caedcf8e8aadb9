/**
 * What every dashboard script shares: element lookup and creation, notices, and the JSON calls to the dashboard
 * routes (same origin, the session cookie). Bundled into each script (scripts/build-dashboard.ts).
 */
import type { operations } from '@svc/types';

/** The page's element with this id, checked to be of the given type (an HTMLElement when none is given). */
export function $(id: string): HTMLElement;
export function $<T extends Element>(id: string, type: abstract new () => T): T;
export function $(id: string, type: abstract new () => Element = HTMLElement): Element {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`#${id} is missing from the page or not a ${type.name}`);
  return node;
}

/** Attributes of a new element; `text` sets its text and `className` its class. */
export type Props = Record<string, string>;
/** A child: an element, or text (an empty string adds an empty text node). */
export type Child = Node | string;

/** A new element with attributes and children (text never parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

/** Empties a node and returns it. */
export function clear<T extends Node>(node: T): T {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export type NoticeKind = 'ok' | 'warn' | 'error';

/** Replaces what the element `target` shows with one notice (an alert for errors, a status otherwise). */
export function notice(target: string, kind: NoticeKind, text: string): void {
  clear($(target)).appendChild(el('p', { className: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status', text }));
}

/**
 * Makes the page's form `id` call `run` instead of loading a page, then enables its submit buttons. The page's
 * HTML renders them disabled (src/dashboard/html.ts, `scriptSubmit`): submitted before this script ran, the form
 * would load the page again with its fields (a partner's email, an endpoint URL) in the address and do nothing else.
 */
export function onSubmit(id: string, run: () => Promise<void> | void): void {
  const form = $(id, HTMLFormElement);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void run();
  });
  for (const submit of form.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) submit.disabled = false;
}

/** A button that runs `onClick`. */
export function button(text: string, className: string, onClick: () => unknown): HTMLButtonElement {
  const b = el('button', { type: 'button', className, text });
  b.addEventListener('click', () => void onClick());
  return b;
}

/** The message of anything thrown (the routes' error message for a refused call). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A refused call: the route's own error message and the HTTP status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The error's `details` (such as `min_payout_cents`), so a page decides by them, never by the message. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Operation = keyof operations;
/** The JSON body an operation of the spec answers with this status (spec/openapi.yaml, through @svc/types). */
export type Answer<Op extends Operation, Status extends number = 200> = operations[Op]['responses'] extends {
  [S in Status]: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** Calls a dashboard route with JSON; a refused call throws an ApiError carrying the route's message. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (text ? JSON.parse(text) : null) as unknown;
  if (!res.ok) throw new ApiError(errorMessage(json) ?? 'Request failed (' + res.status + ')', res.status, errorDetails(json));
  return json as T;
}

function errorMessage(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = json.error;
  if (typeof error !== 'object' || error === null || !('message' in error) || typeof error.message !== 'string') return undefined;
  return error.message || undefined;
}

function errorDetails(json: unknown): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || !('error' in json)) return {};
  const error = json.error;
  if (typeof error !== 'object' || error === null || !('details' in error)) return {};
  return typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
}

/** A date and time in the browser's locale; `fallback` when there is none. */
export function when(iso: string | null | undefined, fallback: string): string {
  return iso ? new Date(iso).toLocaleString() : fallback;
}

/** Every element the selector matches. */
export function all<T extends Element = Element>(selector: string): T[] {
  return Array.from(document.querySelectorAll<T>(selector));
}

/**
 * A wide table's box: on a narrow screen it scrolls sideways inside itself, never the page; labelled and focusable, so
 * the keyboard can scroll it too (the sections' own tables get the same box in their HTML).
 */
export function scrollRegion(label: string, table: HTMLTableElement): HTMLDivElement {
  return el('div', { className: 'scroll', role: 'region', 'aria-label': label, tabindex: '0' }, [table]);
}
