/** The dashboard stylesheet (served at /dashboard/assets/app.css); plain CSS, no build step. */
export const appCss = String.raw`
:root { --ink: #1d2430; --muted: #5b6576; --line: #dde2ea; --bg: #f5f7fa; --card: #fff; --brand: #2b59c3;
  --ok: #1f7a4d; --ok-bg: #e5f5ec; --warn: #8a5a00; --warn-bg: #fff4dc; --err: #a3261b; --err-bg: #fde8e6;
  --click: #2b59c3; --lead: #d08a10; --sale: #1f7a4d; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font-size: 15px; line-height: 1.45; }
a { color: var(--brand); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
header.top { display: flex; align-items: center; justify-content: space-between; padding: 12px 24px; background: var(--ink); color: #fff; }
header.top .brand { font-weight: 700; letter-spacing: .02em; }
header.top form { display: inline; margin-left: 12px; }
header.top button { background: transparent; color: #fff; border: 1px solid #fff6; }
.layout { display: grid; grid-template-columns: 260px 1fr; gap: 24px; padding: 24px; max-width: 1280px; margin: 0 auto; }
.layout > * { min-width: 0; }
.narrow { max-width: 460px; margin: 48px auto; padding: 0 16px; }
aside h2, main h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 8px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin-bottom: 18px; }
.card h3 { margin: 0 0 4px; font-size: 17px; }
.card .hint { color: var(--muted); margin: 0 0 12px; font-size: 14px; }
.muted { color: var(--muted); }
ul.programs { list-style: none; margin: 0 0 18px; padding: 0; }
ul.programs a { display: block; padding: 8px 10px; border-radius: 6px; text-decoration: none; color: var(--ink); }
ul.programs a.active { background: var(--brand); color: #fff; }
ul.programs a:hover:not(.active) { background: #e9edf5; }
label { display: block; font-weight: 600; font-size: 13px; margin: 10px 0 4px; }
input, select, textarea { width: 100%; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; font: inherit; background: #fff; }
textarea { min-height: 70px; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--brand); background: var(--brand); color: #fff; cursor: pointer; margin-top: 10px; }
button.secondary { background: #fff; color: var(--brand); }
button.danger { background: var(--err); border-color: var(--err); }
button:disabled { opacity: .5; cursor: not-allowed; }
.notice { padding: 10px 12px; border-radius: 6px; margin: 10px 0; }
.notice.ok { background: var(--ok-bg); color: var(--ok); }
.notice.warn { background: var(--warn-bg); color: var(--warn); }
.notice.error { background: var(--err-bg); color: var(--err); }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
.grid2 > * { min-width: 0; }
.title { display: flex; align-items: baseline; gap: 12px; margin-bottom: 12px; }
.title h1 { margin: 0; font-size: 24px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; background: #e9edf5; color: var(--muted); }
.badge.ok { background: var(--ok-bg); color: var(--ok); }
.badge.warn { background: var(--warn-bg); color: var(--warn); }
.badge.test { background: #efe7fb; color: #6a3fb5; }
ul.checklist { list-style: none; padding: 0; margin: 0; }
ul.checklist li { padding: 6px 0; border-bottom: 1px solid var(--line); display: flex; justify-content: space-between; gap: 8px; }
ul.checklist li:last-child { border-bottom: 0; }
.stats { display: flex; gap: 24px; flex-wrap: wrap; margin: 8px 0 12px; }
.stats div strong { display: block; font-size: 22px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 600; font-size: 12px; text-transform: uppercase; }
tr.fresh { animation: fresh 2s ease-out; }
@keyframes fresh { from { background: #fff4b8; } to { background: transparent; } }
.keybox { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
.newkey { word-break: break-all; background: var(--warn-bg); padding: 8px; border-radius: 6px; }
.legend span { display: inline-flex; align-items: center; gap: 4px; margin-right: 12px; font-size: 13px; color: var(--muted); }
.legend i { width: 10px; height: 10px; border-radius: 2px; display: inline-block; }
.swatch-click { background: var(--click); }
.swatch-lead { background: var(--lead); }
.swatch-sale { background: var(--sale); }
h3.spaced { margin-top: 16px; }
a.button { display: inline-block; text-decoration: none; font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--brand); background: var(--brand); color: #fff; margin-top: 10px; }
.user-code { font: 600 28px/1.2 ui-monospace, monospace; letter-spacing: 0.12em; }
svg.chart { width: 100%; height: 180px; display: block; }
pre.snippet { background: #0f1420; color: #e6e9ef; padding: 10px; border-radius: 6px; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.steps li { margin: 4px 0; }
button.small { padding: 3px 10px; margin-top: 0; font-size: 13px; }
.inline { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.inline label { margin: 0; }
.inline input { width: auto; }
.card h4 { margin: 14px 0 4px; font-size: 14px; }
ul.partner-links { list-style: none; padding: 0; }
ul.partner-links li { padding: 6px 0; border-bottom: 1px solid var(--line); }
body.has-partner-view #empty-view { display: none; }
fieldset.inline { border: 0; padding: 0; margin: 10px 0 0; }
fieldset.inline label { font-weight: 400; }
.webhook-endpoint { border-top: 1px solid var(--line); margin-top: 14px; padding-top: 6px; }
.webhook-endpoint code.webhook-url { word-break: break-all; }
@media (max-width: 860px) { .layout, .grid2 { grid-template-columns: 1fr; } }
/* Phones (390 px): nothing wider than the screen; wide tables scroll inside their card, not the page. */
@media (max-width: 600px) {
  .layout { padding: 12px; gap: 12px; }
  header.top { flex-wrap: wrap; gap: 6px; padding: 10px 12px; }
  .title { flex-wrap: wrap; }
  .card { padding: 12px; }
  table { display: block; overflow-x: auto; white-space: nowrap; }
  code, .newkey, .keybox code { word-break: break-all; }
}
`;
