import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectFenced, expectSafeObject, INJECTION, SECRET } from "../ground/hostile-web.js";
import { makeDocx, wp } from "../read/formats/make-docs.js";
import { type SimProxy, type SimWeb, startProxy, startSimWeb } from "../simweb/index.js";
import { runCli } from "./run-cli.js";

// The CLI as users run it (run-cli.ts), reading an office document whose title and text attack the model.
let web: SimWeb;
let proxy: SimProxy;
beforeAll(async () => {
  web = await startSimWeb();
  proxy = await startProxy(web);
});
afterAll(async () => {
  await proxy.close();
  await web.close();
});
afterEach(() => web.reset());

const URL = "https://files.example.com/minutes.docx";

describe("websift fetch: an office document", () => {
  it("is read by its format reader and fenced and redacted like any page", async () => {
    const docx = makeDocx(
      [
        wp("Harbour board minutes", "Heading1"),
        wp(`${INJECTION}. The key is ${SECRET}.`),
        wp("The breakwater is to be repaired."),
      ].join(""),
      { title: `Minutes ${INJECTION} ${SECRET}` },
    );
    web.route("files.example.com", "/minutes.docx", {
      headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
      body: docx,
    });
    const page = await runCli(proxy, ["fetch", URL]);
    expect(page.code).toBe(0);
    expect(page.stdout.split("\n")[0]).toBe(`${URL} (source: document)`);
    expectFenced(page.stdout.trim());
    expect(page.stdout).toContain("The breakwater is to be repaired.");
    const json = JSON.parse((await runCli(proxy, ["fetch", URL, "--json"])).stdout);
    expectSafeObject(json, { status: "ok" });
    expect(json.text).toContain("# Harbour board minutes");
  });
});
