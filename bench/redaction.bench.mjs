// Secret redaction: speed on a large page (it runs on every page, title and snippet), work per character on
// adversarial input, families covered against gitleaks' rule list, and false positives on the negatives corpus.
// The corpus is test/ground/safety/secret-corpus.ts (fakes built at run time), loaded through tsx.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(`${dist}ground/redact.js`)) {
  console.error("bench/redaction: dist/ is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const { redactSecrets } = await import(`${dist}ground/redact.js`);
const corpus = await tsImport("../test/ground/safety/secret-corpus.ts", import.meta.url);

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 15;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// gitleaks' default rule ids (config/gitleaks.toml), the checklist of families.
const GITLEAKS =
  `1password-secret-key 1password-service-account-token adafruit-api-key adobe-client-id adobe-client-secret
age-secret-key airtable-api-key algolia-api-key alibaba-access-key-id alibaba-secret-key anthropic-admin-api-key
anthropic-api-key artifactory-api-key artifactory-reference-token asana-client-id asana-client-secret
atlassian-api-token authress-service-client-access-key aws-access-token azure-ad-client-secret beamer-api-token
bitbucket-client-id bitbucket-client-secret bittrex-access-key bittrex-secret-key cisco-meraki-api-key
clickhouse-cloud-api-secret-key clojars-api-token cloudflare-api-key cloudflare-global-api-key cloudflare-origin-ca-key
codecov-access-token cohere-api-token coinbase-access-token confluent-access-token confluent-secret-key
contentful-delivery-api-token curl-auth-header curl-auth-user database-password databricks-api-token
datadog-access-token defined-networking-api-token digitalocean-access-token digitalocean-pat digitalocean-refresh-token
discord-api-token discord-client-id discord-client-secret doppler-api-token droneci-access-token dropbox-api-token
dropbox-long-lived-api-token dropbox-short-lived-api-token duffel-api-token dynatrace-api-token easypost-api-token
easypost-test-api-token etsy-access-token facebook-access-token facebook-page-access-token facebook-secret
fastly-api-token finicity-api-token finicity-client-secret finnhub-access-token flickr-access-token
flutterwave-encryption-key flutterwave-public-key flutterwave-secret-key flyio-access-token frameio-api-token
freemius-secret-key freshbooks-access-token gcp-api-key generic-api-key github-app-token github-fine-grained-pat
github-oauth github-pat github-refresh-token gitlab-cicd-job-token gitlab-deploy-token gitlab-feature-flag-client-token
gitlab-feed-token gitlab-incoming-mail-token gitlab-kubernetes-agent-token gitlab-oauth-app-secret gitlab-pat
gitlab-pat-routable gitlab-ptt gitlab-rrt gitlab-runner-authentication-token gitlab-runner-authentication-token-routable
gitlab-scim-token gitlab-session-cookie gitter-access-token gocardless-api-token grafana-api-key grafana-cloud-api-token
grafana-service-account-token harness-api-key hashicorp-tf-api-token hashicorp-tf-password heroku-api-key
heroku-api-key-v2 hubspot-api-key huggingface-access-token huggingface-organization-api-token infracost-api-token
intercom-api-key intra42-client-secret jfrog-api-key jfrog-identity-token jwt jwt-base64 kraken-access-token
kubernetes-secret-yaml kucoin-access-token kucoin-secret-key launchdarkly-access-token linear-api-key
linear-client-secret linkedin-client-id linkedin-client-secret lob-api-key lob-pub-api-key mailchimp-api-key
mailgun-private-api-token mailgun-pub-key mailgun-signing-key mapbox-api-token mattermost-access-token
maxmind-license-key messagebird-api-token messagebird-client-id microsoft-teams-webhook netlify-access-token
new-relic-browser-api-token new-relic-insert-key new-relic-user-api-id new-relic-user-api-key notion-api-token
npm-access-token nuget-config-password nytimes-access-token octopus-deploy-api-key okta-access-token openai-api-key
openshift-user-token perplexity-api-key pkcs12-file plaid-api-token plaid-client-id plaid-secret-key
planetscale-api-token planetscale-oauth-token planetscale-password postman-api-token prefect-api-token private-key
privateai-api-token pulumi-api-token pypi-upload-token rapidapi-access-token readme-api-token rubygems-api-token
scalingo-api-token sendbird-access-id sendbird-access-token sendgrid-api-token sendinblue-api-token sentry-access-token
sentry-org-token sentry-user-token settlemint-application-access-token settlemint-personal-access-token
settlemint-service-access-token shippo-api-token shopify-access-token shopify-custom-access-token
shopify-private-app-access-token shopify-shared-secret sidekiq-secret sidekiq-sensitive-url slack-app-token
slack-bot-token slack-config-access-token slack-config-refresh-token slack-legacy-bot-token slack-legacy-token
slack-legacy-workspace-token slack-user-token slack-webhook-url snyk-api-token sonar-api-token sourcegraph-access-token
square-access-token squarespace-access-token stripe-access-token sumologic-access-id sumologic-access-token
telegram-bot-api-token travisci-access-token twilio-api-key twitch-api-token twitter-access-secret twitter-access-token
twitter-api-key twitter-api-secret twitter-bearer-token typeform-api-token vault-batch-token vault-service-token
yandex-access-token yandex-api-key yandex-aws-access-token zendesk-secret-key`.split(/\s+/);

// 1. Families. A rule id the corpus has a fake for is tested with it; the rest (gitleaks finds them by the vendor's
// name beside a value) are tested as that name's environment variable holding a generated value, which is how they
// appear in the .env files and configs a page shows.
const positives = corpus.positives();
const byId = new Map();
for (const sample of positives) for (const id of sample.covers) byId.set(id, sample);
const generated = (id) => {
  const name = id.toUpperCase().replace(/-/g, "_");
  const value = `Tk${"7fQ2xW9mZ4pL8rV3nB6cY1hJ5dS0gK".repeat(2).slice(0, 30)}`;
  return { text: `${name}=${value}`, secret: value };
};
const rows = [];
for (const id of GITLEAKS) {
  const sample = byId.get(id);
  const probe = sample ?? generated(id);
  const { text, found } = redactSecrets(probe.text);
  const hidden = !text.includes(probe.secret) && found.length > 0;
  const how = hidden ? [...new Set(found.map((f) => f.kind))].join(", ") : "";
  const why = corpus.NOT_COVERED[id];
  rows.push({ id, covered: hidden, rule: how || why || "", via: sample ? "fake token" : "as NAME=value" });
}
const beyond = positives.filter((s) => s.covers.every((id) => !GITLEAKS.includes(id)));
const beyondHidden = beyond.filter((s) => !redactSecrets(s.text).text.includes(s.secret));

// 2. False positives on the negatives corpus (any change to the text is one).
const negatives = corpus.negatives();
const falsePositives = negatives.filter((text) => redactSecrets(text).text !== text);

// 3. Speed on a large page: the page-kind fixtures (HTML with scripts, styles and data URIs) repeated to 1 MB.
const fixtures = fileURLToPath(new URL("../test/fixtures/page-kinds/", import.meta.url));
let page = readdirSync(fixtures)
  .filter((f) => f.endsWith(".html"))
  .map((f) => readFileSync(`${fixtures}${f}`, "utf8"))
  .join("\n");
while (page.length < 1_000_000) page += page;
page = page.slice(0, 1_000_000);
const kb = page.length / 1024;
const time = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1000;
};
for (let i = 0; i < 3; i++) redactSecrets(page);
const perKb = median(Array.from({ length: ROUNDS }, () => time(() => redactSecrets(page)) / kb));
// Machine baseline in the same run: one global regex pass over the same page.
const passPerKb = median(
  Array.from({ length: ROUNDS }, () => time(() => page.match(/\bghp_[A-Za-z0-9]{36}/g)) / kb),
);

// 4. Adversarial input: a rule's prefix or context repeated without the token it promises, at 200 KB and 1.6 MB.
// CPU time of this process (median of 7), which a busy machine disturbs less than wall time.
const cpu = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const shapes = [
  "key=",
  '"secret": "',
  "-----BEGIN PRIVATE KEY-----\n",
  "://a:",
  "Bearer ",
  "a".repeat(31),
  "0123456789abcdef",
];
const adversarial = shapes.map((shape) => {
  const at = (n) => {
    const text = shape.repeat(Math.ceil(n / shape.length)).slice(0, n);
    redactSecrets(text);
    return median(Array.from({ length: 7 }, () => cpu(() => redactSecrets(text))));
  };
  return { shape, small: at(200_000), large: at(1_600_000) };
});

const covered = rows.filter((r) => r.covered).length;
const out = [];
out.push("## Secret redaction");
out.push("");
out.push(
  `Median of ${ROUNDS} runs. Page: the page-kind fixtures repeated to ${Math.round(kb)} KB (two-byte text). Baseline: one global regex pass over the same page, same run.`,
);
out.push("");
out.push("| measure | value |");
out.push("| --- | --- |");
out.push(`| redactSecrets, µs per KB | ${perKb.toFixed(1)} |`);
out.push(`| one regex pass (baseline), µs per KB | ${passPerKb.toFixed(2)} |`);
out.push(`| gitleaks rule ids covered | ${covered} of ${rows.length} |`);
out.push(
  `| families beyond gitleaks covered (trufflehog detectors, named forms) | ${beyondHidden.length} of ${beyond.length} |`,
);
out.push(
  `| false positives on the negatives corpus | ${falsePositives.length} of ${negatives.length} texts |`,
);
out.push("");
out.push(
  "Adversarial input (a prefix or context repeated without its token): CPU ms at 200 KB → 1.6 MB (linear is ×8).",
);
out.push("");
out.push("| shape | 200 KB | 1.6 MB | ratio |");
out.push("| --- | --- | --- | --- |");
for (const a of adversarial)
  out.push(
    `| \`${JSON.stringify(a.shape).slice(1, -1).slice(0, 30)}\` | ${a.small.toFixed(1)} | ${a.large.toFixed(1)} | ×${(a.large / a.small).toFixed(1)} |`,
  );
out.push("");
out.push(
  "gitleaks' rules, one row each: covered means the fake (or the vendor's NAME=value) came back redacted.",
);
out.push("");
out.push("| gitleaks rule | covered | tested as | redacted as |");
out.push("| --- | --- | --- | --- |");
for (const r of rows) out.push(`| ${r.id} | ${r.covered ? "yes" : "no"} | ${r.via} | ${r.rule} |`);
console.log(out.join("\n"));
