/**
 * The program a dashboard page is about: the page's address names it, the server writes it on the page's root
 * element (html.ts) and the section scripts read it (client/program-event.ts). No DOM or Node here: both sides import it.
 */
export interface OpenProgram {
  id: number;
  domain: string;
  role: 'owner' | 'member';
}
