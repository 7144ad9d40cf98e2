/**
 * Obviously fake credentials in the shapes of real ones, built at runtime so that no string in the
 * repository looks like a leaked key to a scanner.
 */
const ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** `n` deterministic alphanumerics that start with TESTSECRET so a reader sees at once they are fake. */
export function fakeChars(n: number, alphabet = ALNUM): string {
  let out = "TESTSECRET".slice(0, n);
  for (let i = out.length; i < n; i++) out += alphabet[(i * 7 + 3) % alphabet.length];
  return out;
}

const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const b64 = (s: string) => Buffer.from(s).toString("base64url").replace(/=+$/, "");

export const FAKE = {
  anthropic: () => `sk-ant-api03-${fakeChars(93)}AA`,
  anthropicAdmin: () => `sk-ant-admin01-${fakeChars(93)}AA`,
  openaiProject: () => `sk-proj-${fakeChars(74)}T3BlbkFJ${fakeChars(74)}`,
  openaiLegacy: () => `sk-${fakeChars(20)}T3BlbkFJ${fakeChars(20)}`,
  githubClassic: () => `ghp_${fakeChars(36)}`,
  githubFineGrained: () => `github_pat_${fakeChars(22)}_${fakeChars(59)}`,
  githubApp: () => `ghs_${fakeChars(36)}`,
  githubUser: () => `ghu_${fakeChars(36)}`,
  githubOauth: () => `gho_${fakeChars(36)}`,
  githubRefresh: () => `ghr_${fakeChars(36)}`,
  gitlab: () => `glpat-${fakeChars(20)}`,
  gitlabDeploy: () => `gldt-${fakeChars(20)}`,
  awsKeyId: () => `AKIA${fakeChars(16, base32)}`,
  awsSecret: () => fakeChars(40, `${ALNUM}/+`),
  stripeLive: () => `sk_live_${fakeChars(24)}`,
  stripeTest: () => `sk_test_${fakeChars(24)}`,
  stripeRestrictedLive: () => `rk_live_${fakeChars(24)}`,
  stripeRestrictedTest: () => `rk_test_${fakeChars(24)}`,
  slackBot: () => `xoxb-1234567890-1234567890123-${fakeChars(24)}`,
  slackUser: () => `xoxp-1234567890-1234567890-1234567890123-${fakeChars(32)}`,
  slackApp: () => `xapp-1-A0123456789-1234567890123-${fakeChars(64, "abcdef0123456789")}`,
  slackWebhook: () => `https://hooks.slack.com/services/T00000000/B00000000/${fakeChars(24)}`,
  npm: () => `npm_${fakeChars(36)}`,
  pypi: () => `pypi-AgEIcHlwaS5vcmc${fakeChars(70)}`,
  huggingface: () => `hf_${fakeChars(34, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")}`,
  googleApiKey: () => `AIza${fakeChars(35)}`,
  jwt: () =>
    `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64('{"sub":"test-SECRET","name":"Fake"}')}.${fakeChars(43)}`,
  pemBody: () => Array.from({ length: 4 }, (_, i) => fakeChars(64 - i)).join("\n"),
};
