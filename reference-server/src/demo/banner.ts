import type { Demo } from './start-demo';
import { demo } from './seed';

/** What `pnpm start` prints: everything a newcomer needs for the click → signup → sale walk-through. */
export function banner(running: Demo, databaseUrl: string, keyFrom: 'env' | 'file'): string {
  const { links, seeded, url } = running;
  return `
svc demo is running at ${url}  (database: ${withoutPassword(databaseUrl)})

  1. Open the partner's referral link. It lands on the demo storefront, which records the click:
       ${links.referral}
     Sign up there, then buy something.

  2. See the click, the lead and the sale in the dashboard:
       ${links.dashboard}
     Development sign-in is ON in the demo (anyone can sign in as any email; never in production):
     enter ${demo.email} (it owns the demo program) at ${links.signIn}
     The Partners page adds partners and links; sign in as ${demo.partnerEmail} to see the partner's own view.

  3. The demo program (id ${seeded.programId}) and its API key${keyFrom === 'env' ? ' (from SVC_DEMO_API_KEY)' : ' (kept in svc-demo.key; pnpm start --fresh starts over)'}:
       ${seeded.apiKey}
     Try it: curl -H "Authorization: Bearer ${seeded.apiKey}" ${url}/api/v1/programs/me/readiness

  Run every test: pnpm test        Stop: Ctrl+C
`;
}

/** A PostgreSQL URL may carry a password; the banner never prints it. */
const withoutPassword = (databaseUrl: string) => databaseUrl.replace(/^(\w+:\/\/[^:/@]+):[^@]*@/, '$1:***@');
