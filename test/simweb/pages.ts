import type { SimHandler, SimReply } from "./index.js";

export const WWW = "www.example.com";

/** Ordinary pages on www.example.com (both http and https). */
export function pageRoutes(): [string, string | RegExp, SimHandler | SimReply][] {
  return [
    [
      WWW,
      "/",
      {
        body: "<!doctype html><html><head><title>Example</title></head><body><h1>Example</h1><p>An ordinary page.</p></body></html>",
      },
    ],
    // The request as the server saw it, as JSON: manners tests read the headers we sent.
    [
      WWW,
      "/echo",
      (req) => ({
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          method: req.method,
          path: req.url.pathname + req.url.search,
          headers: req.headers,
          body: req.body,
        }),
      }),
    ],
    [
      WWW,
      "/set-cookie",
      {
        headers: { "set-cookie": "session=s3cr3t; Path=/", "content-type": "text/plain" },
        body: "cookie set",
      },
    ],
    [WWW, "/json", { headers: { "content-type": "application/json" }, body: '{"hello":"world"}' }],
    [WWW, "/redirect-home", { status: 302, headers: { location: "/" } }],
  ];
}
