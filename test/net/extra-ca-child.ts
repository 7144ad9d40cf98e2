// Run by extra-ca.test.ts in a child process: fetches one page from the simulated web with no `ca` option,
// so only NODE_EXTRA_CA_CERTS (read by Node at start-up) can make the test CA trusted.
import { Deadline } from "../../src/core/deadline.js";
import { createNet } from "../../src/net/client.js";

const [httpsPort, proxyUrl] = process.argv.slice(2);
const net = createNet({
  resolve: async () => ["93.184.215.14"],
  connectTo: () => ({ host: "127.0.0.1", port: Number(httpsPort) }),
  env: proxyUrl ? { HTTPS_PROXY: proxyUrl } : {},
});
const r = await net.request("https://www.example.com/", { deadline: Deadline.after(5000) });
await net.close();
process.stdout.write(JSON.stringify(r.ok ? { ok: true, status: r.status } : { ok: false, code: r.code }));
