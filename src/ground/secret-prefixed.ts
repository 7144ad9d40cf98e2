import { END, mixesLettersAndDigits, rule, type SecretRule } from "./secret-rule.js";

/**
 * Provider tokens that carry a fixed prefix (or a fixed shape) of their own, so no context is needed. Written from
 * the families in gitleaks' published rule set (config/gitleaks.toml) and trufflehog's detectors; the comment before
 * each entry names the gitleaks rule ids it stands for. Where gitleaks is strict about length we are a little
 * looser (`{36,}` where it says `{36}`): a redactor that misses a slightly longer real token leaks it, one that
 * hides a slightly longer fake costs nothing. Each rule still needs its prefix, so hex digests, UUIDs, git SHAs and
 * prose never match. A rule whose prefix is a character class (a length of digits or hex before a fixed
 * part) starts at the fixed part and only then looks behind: V8 tries a pattern that opens with a class or a
 * lookbehind at every position of a page (a 1 MB page paid 24 ms for one such rule).
 */
export const PREFIXED_RULES: SecretRule[] = [
  // anthropic-api-key, anthropic-admin-api-key
  rule("anthropic-api-key", String.raw`\bsk-ant-[a-z]+\d*-[A-Za-z0-9_-]{20,}${END}`),
  // openai-api-key: project, service-account and admin keys, then the legacy shape
  rule("openai-api-key", String.raw`\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}${END}`),
  rule("openai-api-key", String.raw`\bsk-[A-Za-z0-9]{32,}${END}`),
  // github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat
  rule("github-token", String.raw`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`),
  rule("github-token", String.raw`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`),
  // gitlab-pat, gitlab-pat-routable, gitlab-deploy-token, gitlab-runner-authentication-token(-routable),
  // gitlab-ptt, gitlab-cicd-job-token, gitlab-feed-token, gitlab-incoming-mail-token, gitlab-kubernetes-agent-token,
  // gitlab-oauth-app-secret, gitlab-scim-token, gitlab-feature-flag-client-token
  rule(
    "gitlab-token",
    String.raw`\bgl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct)-[A-Za-z0-9_.-]{20,300}${END}`,
  ),
  // gitlab-rrt
  rule("gitlab-token", String.raw`\bGR1348941[A-Za-z0-9_-]{20,}\b`),
  // gitlab-session-cookie
  rule("gitlab-token", String.raw`\b_gitlab_session=([0-9a-z]{32})\b`, { group: 1 }),
  // aws-access-token (gitleaks allowlists the docs' …EXAMPLE id; we redact it like any other)
  rule("aws-access-key-id", String.raw`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`),
  // stripe-access-token
  rule("stripe-key", String.raw`\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,247}\b`),
  // webhook signing secrets: Stripe, Svix and Clerk share the whsec_ prefix (no gitleaks rule)
  rule("webhook-secret", String.raw`\bwhsec_[A-Za-z0-9+/=_-]{24,}`),
  // slack-webhook-url
  rule(
    "slack-webhook",
    String.raw`(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`,
  ),
  // microsoft-teams-webhook
  rule("teams-webhook", String.raw`https://[\w-]+\.webhook\.office\.com/webhookb2/[^\s"'<>)\]]{40,}`),
  // discord webhooks and bot tokens (trufflehog's discordwebhook, discordbottoken)
  rule(
    "discord-webhook",
    String.raw`https://(?:canary\.|ptb\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w-]{40,}`,
  ),
  rule("discord-token", String.raw`\b[MNO][A-Za-z\d_-]{23,27}\.[\w-]{6}\.[\w-]{27,40}\b`, {
    accept: mixesLettersAndDigits,
  }),
  // slack-bot-token, slack-user-token, slack-legacy-*, slack-config-*
  rule("slack-token", String.raw`\bxox[abposer]-[A-Za-z0-9-]{10,}`),
  // slack-app-token
  rule("slack-token", String.raw`\bxapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+`),
  // npm-access-token
  rule("npm-token", String.raw`\bnpm_[A-Za-z0-9]{36,}\b`),
  // pypi-upload-token
  rule("pypi-token", String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`),
  // rubygems-api-token
  rule("rubygems-token", String.raw`\brubygems_[a-f0-9]{48}\b`),
  // clojars-api-token
  rule("clojars-token", String.raw`\bCLOJARS_[A-Za-z0-9]{60}\b`),
  // huggingface-access-token, huggingface-organization-api-token
  rule("huggingface-token", String.raw`\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`),
  // gcp-api-key
  rule("google-api-key", String.raw`\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`),
  // Google OAuth client secrets, access and refresh tokens (trufflehog's gcpoauth / googleoauth2)
  rule("google-oauth", String.raw`\bGOCSPX-[A-Za-z0-9_-]{28,}`),
  rule("google-oauth", String.raw`\bya29\.[A-Za-z0-9_-]{30,}`),
  rule("google-oauth", String.raw`(?<![\w/])1//0[A-Za-z0-9_-]{40,}`),
  // azure-ad-client-secret
  rule("azure-client-secret", String.raw`(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])`),
  // alibaba-access-key-id
  rule("alibaba-access-key-id", String.raw`\bLTAI[A-Za-z0-9]{20}${END}`),
  // 1password-secret-key, 1password-service-account-token
  rule(
    "1password-secret",
    String.raw`\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}\b`,
  ),
  rule("1password-secret", String.raw`\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}`),
  // age-secret-key
  rule("age-secret-key", String.raw`\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b`),
  // artifactory-api-key, artifactory-reference-token
  rule("artifactory-token", String.raw`\b(?:AKCp[A-Za-z0-9]{64,}|cmVmd[A-Za-z0-9]{59})\b`, {
    accept: mixesLettersAndDigits,
  }),
  // atlassian-api-token
  rule("atlassian-token", String.raw`\bATATT3[A-Za-z0-9_=-]{150,}`),
  // authress-service-client-access-key
  rule(
    "authress-key",
    String.raw`\b(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}`,
  ),
  // clickhouse-cloud-api-secret-key
  rule("clickhouse-key", String.raw`\b4b1d[A-Za-z0-9]{38}\b`, {
    accept: (s) => /[G-Zg-z]/.test(s),
  }),
  // cloudflare-origin-ca-key
  rule("cloudflare-key", String.raw`\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b`),
  // databricks-api-token
  rule("databricks-token", String.raw`\bdapi[a-f0-9]{32}(?:-\d)?${END}`),
  // digitalocean-access-token, digitalocean-pat, digitalocean-refresh-token
  rule("digitalocean-token", String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`),
  // doppler-api-token
  rule("doppler-token", String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`),
  // duffel-api-token
  rule("duffel-token", String.raw`\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43,}`),
  // dynatrace-api-token
  rule("dynatrace-token", String.raw`\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b`),
  // easypost-api-token, easypost-test-api-token
  rule("easypost-key", String.raw`\bEZ[AT]K[A-Za-z0-9]{54}\b`),
  // facebook-page-access-token, facebook-access-token (app id | app secret)
  rule("facebook-token", String.raw`\bEAA[MC][A-Za-z0-9]{100,}`),
  rule("facebook-token", String.raw`(?:\||%7C)(?<=(?<!\d)\d{15,16}(?:\||%7C))([0-9A-Za-z_-]{27,40})${END}`, {
    group: 1,
    accept: mixesLettersAndDigits,
  }),
  // flutterwave-encryption-key, flutterwave-public-key, flutterwave-secret-key
  rule("flutterwave-key", String.raw`\bFLW(?:SECK|PUBK)(?:_TEST)?-[A-Za-z0-9]{12,}(?:-X)?\b`),
  // flyio-access-token
  rule(
    "flyio-token",
    String.raw`\b(?:fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})`,
  ),
  // frameio-api-token
  rule("frameio-token", String.raw`\bfio-u-[A-Za-z0-9_=-]{64}`),
  // grafana-api-key, grafana-cloud-api-token, grafana-service-account-token
  rule(
    "grafana-token",
    String.raw`\b(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b)`,
  ),
  // harness-api-key
  rule("harness-token", String.raw`\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b`),
  // hashicorp-tf-api-token
  rule(
    "terraform-token",
    String.raw`\.atlasv1\.(?<=(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,70}`,
  ),
  // vault-service-token, vault-batch-token (the legacy `s.` shape needs its key name: see assignments)
  rule("vault-token", String.raw`\b(?:hvs\.[\w-]{90,120}|hvb\.[\w-]{138,300})`),
  // heroku-api-key-v2 (v1 keys are UUIDs: known by their key name only)
  rule("heroku-key", String.raw`\bHRKU-AA[0-9A-Za-z_-]{58}`),
  // infracost-api-token
  rule("infracost-token", String.raw`\bico-[A-Za-z0-9]{32}\b`, { accept: mixesLettersAndDigits }),
  // intra42-client-secret
  rule("intra42-secret", String.raw`\bs-s4t2(?:ud|af)-[a-f0-9]{64}\b`),
  // linear-api-key
  rule("linear-key", String.raw`\blin_api_[A-Za-z0-9]{40}\b`),
  // mailchimp-api-key, mailgun-private-api-token (their shapes are distinctive without the vendor's name)
  rule("mailchimp-key", String.raw`-us\d{1,2}\b(?<=(?<![A-Za-z0-9])([a-f0-9]{32})-us\d{1,2})`, { group: 1 }),
  rule("mailgun-key", String.raw`\bkey-[a-f0-9]{32}\b`),
  // mapbox-api-token (secret tokens; pk. tokens are public by design)
  rule("mapbox-token", String.raw`\bsk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}`),
  // maxmind-license-key
  rule("maxmind-key", String.raw`_mmk\b(?<=(?<![A-Za-z0-9])[A-Za-z0-9]{6}_([A-Za-z0-9]{29})_mmk)`, {
    group: 1,
  }),
  // new-relic-user-api-key, new-relic-insert-key, new-relic-browser-api-token
  rule("newrelic-key", String.raw`\b(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})\b`),
  // notion-api-token (and the older secret_ integration tokens)
  rule("notion-token", String.raw`\b(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})\b`, {
    accept: mixesLettersAndDigits,
  }),
  // octopus-deploy-api-key
  rule("octopus-key", String.raw`\bAPI-[A-Z0-9]{26}\b`, { accept: mixesLettersAndDigits }),
  // openshift-user-token
  rule("openshift-token", String.raw`\bsha256~[\w-]{43}`),
  // perplexity-api-key and the other model providers' keys (trufflehog: groq, xai, replicate, tavily, langsmith)
  rule("ai-provider-key", String.raw`\bpplx-[A-Za-z0-9]{48}\b`),
  rule("ai-provider-key", String.raw`\bgsk_[A-Za-z0-9]{48,}\b`),
  rule("ai-provider-key", String.raw`\bxai-[A-Za-z0-9]{60,}\b`),
  rule("ai-provider-key", String.raw`\br8_[A-Za-z0-9]{37}\b`),
  rule("ai-provider-key", String.raw`\btvly-(?:dev-|prod-)?[A-Za-z0-9]{24,}\b`),
  rule("ai-provider-key", String.raw`\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b`),
  // planetscale-api-token, planetscale-oauth-token, planetscale-password
  rule("planetscale-token", String.raw`\bpscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}`),
  // postman-api-token
  rule("postman-token", String.raw`\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b`),
  // prefect-api-token
  rule("prefect-token", String.raw`\bpnu_[A-Za-z0-9]{36}\b`),
  // pulumi-api-token
  rule("pulumi-token", String.raw`\bpul-[a-f0-9]{40}\b`),
  // readme-api-token
  rule("readme-token", String.raw`\brdme_[a-z0-9]{70}\b`),
  // scalingo-api-token
  rule("scalingo-token", String.raw`\btk-us-[\w-]{48}`),
  // sendgrid-api-token
  rule("sendgrid-token", String.raw`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64}`),
  // sendinblue-api-token (Brevo API and SMTP keys)
  rule("sendinblue-token", String.raw`\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b`),
  // sentry-org-token, sentry-user-token
  rule("sentry-token", String.raw`\b(?:sntrys_eyJ[A-Za-z0-9+/=_]{50,}|sntryu_[a-f0-9]{64}\b)`),
  // settlemint-application-access-token, settlemint-personal-access-token, settlemint-service-access-token
  rule("settlemint-token", String.raw`\bsm_(?:aat|pat|sat)_[A-Za-z0-9]{16}\b`),
  // shippo-api-token
  rule("shippo-token", String.raw`\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b`),
  // shopify-access-token, shopify-custom-access-token, shopify-private-app-access-token, shopify-shared-secret
  rule("shopify-token", String.raw`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`),
  // sidekiq-secret (sidekiq-sensitive-url is a URL credential: see the URL rule)
  rule(
    "sidekiq-secret",
    String.raw`\bBUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?\s*[=:]\s*["']?([a-f0-9]{8}:[a-f0-9]{8})\b`,
    { group: 1 },
  ),
  // square-access-token (and Square's application secret)
  rule("square-token", String.raw`\b(?:EAAA|sq0atp-|sq0csp-)[\w-]{22,60}${END}`),
  // telegram-bot-api-token (the token's own shape, wherever it stands)
  rule("telegram-bot-token", String.raw`:AA(?<=(?<!\d)\d{8,10}:AA)([A-Za-z0-9_-]{33})\b`, { group: 1 }),
  // twilio-api-key
  rule("twilio-key", String.raw`\bSK[0-9a-fA-F]{32}\b`, { accept: mixesLettersAndDigits }),
  // typeform-api-token
  rule("typeform-token", String.raw`\btfp_[A-Za-z0-9_.=-]{59}`),
  // yandex-access-token, yandex-api-key, yandex-aws-access-token
  rule(
    "yandex-token",
    String.raw`\b(?:t1\.[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]{86}=*|AQVN[A-Za-z0-9_-]{35,38}\b|YC[A-Za-z0-9_-]{38}\b)`,
    { accept: mixesLettersAndDigits },
  ),
  // jwt, jwt-base64
  rule("jwt", String.raw`\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
  rule("jwt", String.raw`\bZXlK[A-Za-z0-9+/_-]{76,}={0,2}`),
];
