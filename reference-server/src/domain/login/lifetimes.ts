/** §Limits "CLI login session": expires after 5 minutes. */
export const loginSessionMs = 5 * 60_000;
/** Decision (spec/openapi.yaml `loginToken`): the CLI login token is valid for 30 days from sign-in. */
export const loginTokenMs = 30 * 24 * 60 * 60_000;
/** Decision (spec/openapi.yaml `dashboardSession`): the dashboard session is valid for 7 days from sign-in. */
export const dashboardSessionMs = 7 * 24 * 60 * 60_000;
/** id_tokens only carry a sign-in to the callback, so they live briefly. */
export const idTokenSeconds = 5 * 60;
/** How often the CLI should poll (`poll_interval_seconds`). */
export const pollIntervalSeconds = 2;
