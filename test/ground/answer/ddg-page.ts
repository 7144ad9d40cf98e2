/** A DuckDuckGo HTML results page (current markup) whose results point where a test wants. */
export function ddgResultsPage(results: { title: string; url: string; snippet: string }[]): string {
  const blocks = results
    .map(
      (r) => `<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}&amp;rut=abc">${r.title}</a></h2>
    <a class="result__snippet" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}">${r.snippet}</a>
  </div>
</div>`,
    )
    .join("\n");
  return `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body><div id="links" class="results">${blocks}</div></body></html>`;
}

export function article(title: string, paragraphs: string[]): string {
  return `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}</article></main>
<footer>© Example</footer></body></html>`;
}
