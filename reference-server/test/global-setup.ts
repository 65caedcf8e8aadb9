import { buildDashboardAssets } from '../scripts/build-dashboard';

/** The server serves the dashboard's built assets (dist/dashboard): build them from the current source first. */
export default async function setup(): Promise<void> {
  await buildDashboardAssets();
}
