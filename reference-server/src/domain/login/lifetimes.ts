/** spec/rules.md "Limits" "CLI login session": expires after 5 minutes. */
export const loginSessionMs = 5 * 60_000;
/** Decision (spec/openapi.yaml `loginToken`): the CLI login token is valid for 30 days from sign-in. */
export const loginTokenMs = 30 * 24 * 60 * 60_000;
/** Decision (spec/openapi.yaml `dashboardSession`): the dashboard session is valid for 7 days from sign-in. */
export const dashboardSessionMs = 7 * 24 * 60 * 60_000;
/** id_tokens only carry a sign-in to the callback, so they live briefly. */
export const idTokenSeconds = 5 * 60;
/** How often the CLI should poll (`poll_interval_seconds`). */
export const pollIntervalSeconds = 2;
/** How long a browser may take at the identity provider between `/auth/sign-in` and `/auth/callback`. */
export const signInAttemptMs = 10 * 60_000;
/** The dev sign-in form's CSRF token: valid as long as a sign-in attempt. */
export const signInFormMs = signInAttemptMs;
