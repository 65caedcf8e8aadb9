export interface SvcOptions {
  /** The program's id, sent as `additional_data.program_id` with a signup (the "Cleared cookie" rule needs it). */
  programId: number;
  /** Base URL of the service, e.g. `https://svc.example.com`; default the page's own origin. */
  baseUrl?: string | undefined;
  /** `Domain` of the `svc_click_id` cookie; default the detected root domain (spec/rules.md "What the service does", item 8). */
  cookieDomain?: string | undefined;
  /** Log what happens to the console; off by default (the tracker never logs unless asked). */
  debug?: boolean | undefined;
  /** `'pending'` holds the `aff` value and stores or sends nothing until `consent(true)`. */
  consent?: 'pending' | 'granted' | undefined;
  /** Domains whose links carry the click id (`?svc_click_id=`), so the visitor keeps the same click there. */
  domains?: readonly string[] | undefined;
}
