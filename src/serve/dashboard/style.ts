// Colours pass WCAG AA on their backgrounds (text ≥ 4.5:1); focus is always visible.
export const PAGE_CSS = `
:root { --fg:#1b1f24; --muted:#4a5360; --bg:#f5f6f8; --card:#fff; --line:#d4d8de; --accent:#1a56b8;
  --ok:#146c2e; --bad:#a4161a; --warn-bg:#fff4d6; --warn:#6b4a00; font: 15px/1.5 system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 2rem; padding: .75rem 1.5rem; background: #15202e; color: #fff; }
header h1 { font-size: 1.25rem; margin: 0; letter-spacing: .02em; }
nav { display: flex; gap: .25rem; }
nav a { color: #dfe7f2; text-decoration: none; padding: .4rem .8rem; border-radius: 6px; }
nav a[aria-current="page"] { background: #2d405a; color: #fff; }
nav a:hover { text-decoration: underline; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h2 { font-size: 1.35rem; margin: .5rem 0 1rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1rem; }
.row { display: flex; gap: 1rem; align-items: flex-end; justify-content: space-between; flex-wrap: wrap; }
.grow { flex: 1; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 0 1rem; }
.split { display: grid; grid-template-columns: 3fr 2fr; gap: 1rem; }
@media (max-width: 800px) { .split { grid-template-columns: 1fr; } }
.field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: .9rem; }
.field.check { flex-direction: row; align-items: center; gap: .5rem; }
.field.check input { width: 1.1rem; height: 1.1rem; }
label, legend { font-weight: 600; }
small, .hint { color: var(--muted); }
input, select, button { font: inherit; }
input:not([type=checkbox]):not([type=radio]), select { padding: .4rem .5rem; border: 1px solid #8a94a3; border-radius: 6px; background: #fff; color: var(--fg); }
button { padding: .45rem 1rem; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 1rem; }
fieldset.inline { border: 0; padding: 0; display: flex; gap: 1rem; align-items: center; }
fieldset.inline label { font-weight: normal; }
.budgets { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .5rem 1rem; }
.budgets label { font-weight: normal; display: flex; flex-direction: column; }
.actions { display: flex; gap: 1rem; align-items: center; }
.status { color: var(--muted); margin: .5rem 0 0; }
.why { color: var(--muted); max-width: 70ch; }
.state { margin: 0; font-weight: 600; }
.state.on { color: var(--ok); } .state.off { color: var(--bad); }
.warn { background: var(--warn-bg); color: var(--warn); border-radius: 6px; padding: .5rem .75rem; }
#notice { background: #fde8e8; color: var(--bad); margin: 0; padding: .6rem 1.5rem; }
.switch { position: relative; width: 4rem; height: 2.2rem; border-radius: 1.1rem; padding: 0; border: 2px solid #5b6573; background: #c9ced6; }
.switch .knob { position: absolute; top: .15rem; left: .2rem; width: 1.6rem; height: 1.6rem; border-radius: 50%; background: #fff; box-shadow: 0 1px 3px #0005; transition: left .15s; }
.switch[aria-checked="true"] { background: var(--ok); border-color: var(--ok); }
.switch[aria-checked="true"] .knob { left: 2.05rem; }
.keys .key { display: grid; grid-template-columns: 8rem 1fr 5rem 6.5rem; gap: .75rem; align-items: center; padding: .5rem 0; border-bottom: 1px solid var(--line); }
.keys .key:last-child { border-bottom: 0; }
.keys .masked { font-family: ui-monospace, monospace; color: var(--muted); }
pre { white-space: pre-wrap; word-break: break-word; background: #0f1720; color: #e6edf3; padding: 1rem; border-radius: 6px; min-height: 12rem; max-height: 36rem; overflow: auto; margin: 0; font-size: .85rem; }
table { width: 100%; border-collapse: collapse; font-size: .9rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.subject { max-width: 28rem; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-size: .85rem; background: #e6e9ee; }
.badge.ok { background: #dcf2e2; color: var(--ok); } .badge.bad { background: #fde8e8; color: var(--bad); }
ol { padding-left: 1.4rem; margin: 0; } li { margin-bottom: .4rem; overflow-wrap: anywhere; }
ul { margin: 0; padding-left: 1.2rem; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
dialog { border: 1px solid var(--line); border-radius: 8px; max-width: 26rem; }
dialog label { display: block; margin: .5rem 0 .25rem; } dialog input { width: 100%; }
[hidden] { display: none !important; }
`;
