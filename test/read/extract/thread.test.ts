import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// A forum thread's replies are its content even where its markup calls them comments.

const QUESTION =
  "Our team moved from the old hosting plan to the new one last week, and since then every nightly backup has " +
  "stopped half way through, with nothing in the logs except a timeout after forty minutes of copying files.";

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Forum</title></head><body>${body}</body></html>`;
}

const reply = (n: number, who: string) =>
  `<li class="Item ItemComment"><div class="Comment"><a class="Username">${who}</a>` +
  `<div class="Message"><p>Reply ${n}: the timeout is the proxy's, not the backup tool's; raise it to two hours and the copy finishes.</p></div></div></li>`;

describe("forum threads: replies in comment-named markup", () => {
  it("keeps every reply, authors and order, on a page that says it is a thread", async () => {
    const { markdown } = await extractMarkdown(
      page(
        // A long opening post: the thread is not mostly its replies.
        `<main><h1>Backups stop half way</h1><div class="Discussion">${`<p>${QUESTION}</p>`.repeat(8)}</div>` +
          `<div class="CommentsWrap"><ul class="Comments">${reply(1, "linc")}${reply(2, "k17")}${reply(3, "mcrouse")}</ul></div></main>`,
      ),
      "https://forum.example.org/discussion/39620/backups-stop-half-way",
    );
    expect(markdown).toContain("Reply 1:");
    expect(markdown).toContain("k17");
    expect(markdown.indexOf("Reply 2:")).toBeLessThan(markdown.indexOf("Reply 3:"));
  });

  it("drops one-line remarks under a post (Stack Exchange's comments) and a blog's comments", async () => {
    const remarks =
      '<div class="comments"><ul class="comments-list"><li class="comment"><span class="comment-copy">Which proxy is it? Commented May 2, 2009</span></li></ul></div>';
    const answers = `<div class="answer"><p>${QUESTION}</p></div><div class="answer"><p>${QUESTION}</p></div>`;
    const thread = await extractMarkdown(
      page(
        `<main><h1>Why is RAID not a backup?</h1><div class="question"><p>${QUESTION}</p>${remarks}</div>${answers}</main>`,
      ),
      "https://serverfault.com/questions/2888/why-is-raid-not-a-backup",
    );
    expect(thread.markdown).not.toContain("Which proxy is it?");
    const blog = await extractMarkdown(
      page(
        `<article><h1>Backups stop half way</h1><p>${QUESTION}</p><p>${QUESTION}</p></article>` +
          `<div class="CommentsWrap"><ul class="Comments">${reply(1, "linc")}</ul></div>`,
      ),
      "https://blog.example.org/2024/backups-stop-half-way",
    );
    expect(blog.markdown).not.toContain("Reply 1:");
  });
});

describe("forum threads: the statistics beside every post", () => {
  const xenforo = (who: string, joined: string, posts: string, own = "") =>
    `<article class="message"><div class="message-user"><h4 class="name">${who}</h4>` +
    `<div class="extras"><dl class="pairs"><dt>Joined</dt><dd>${joined}</dd></dl><dl class="pairs"><dt>Messages</dt><dd>${posts}</dd></dl></div></div>` +
    `<div class="message-main"><p>${QUESTION}</p>${own}</div></article>`;
  const fluxbb = (who: string, since: string) =>
    `<div class="blockpost"><div class="postleft"><dl><dt><strong>${who}</strong></dt><dd><span>Registered: ${since}</span></dd><dd><span>Posts: 98</span></dd></dl></div>` +
    `<div class="postright"><p>${QUESTION}</p></div></div>`;

  it("drops a label repeated on a row beside each post (join date, post count) and keeps the posts", async () => {
    const specs = "<dl><dt>Backup tool</dt><dd>restic 0.16</dd><dt>Proxy</dt><dd>nginx 1.24</dd></dl>";
    const { markdown } = await extractMarkdown(
      page(
        `<main><h1>Backups stop half way</h1>${xenforo("linc", "Feb 8, 2023", "6,696", specs)}` +
          `${xenforo("k17", "Aug 21, 2013", "11,358")}${xenforo("mcrouse", "Mar 2, 2019", "5")}</main>`,
      ),
      "https://forum.example.org/threads/backups-stop-half-way.973407/",
    );
    expect(markdown).not.toContain("Joined");
    expect(markdown).not.toContain("6,696");
    expect(markdown).toContain("every nightly backup");
    // A post's own definition list says its labels once.
    expect(markdown).toContain("restic 0.16");
    const flux = await extractMarkdown(
      page(
        `<main>${fluxbb("archuser38013", "2024-01-27")}${fluxbb("seth", "2012-09-03")}${fluxbb("archuser38013", "2024-01-27")}</main>`,
      ),
      "https://bbs.example.org/viewtopic.php?id=298271",
    );
    expect(flux.markdown).not.toContain("Registered");
    expect(flux.markdown).toContain("every nightly backup");
  });
});

describe("forum threads: a reply's quote of a post above it", () => {
  const post = (who: string, body: string) =>
    `<article class="message"><div class="message-main"><span class="username">${who}</span><div class="bbWrapper">${body}</div></div></article>`;
  const quote = (who: string, text: string) =>
    `<blockquote class="bbCodeBlock--quote"><div class="bbCodeBlock-title">${who} said:</div><div>${text}</div></blockquote>`;
  const ANSWER =
    "Raise the proxy's read timeout to two hours and the copy finishes, the tool itself has no limit of its own.";

  it("drops a quote whose words stand earlier in the thread, keeps a quote of what the page does not show", async () => {
    const source =
      "The backup tool stops after forty minutes whenever the upstream proxy closes an idle connection on its side.";
    const { markdown } = await extractMarkdown(
      page(
        `<main><h1>Backups stop half way</h1>${post("linc", `<p>${QUESTION}</p>`)}` +
          post("k17", `${quote("linc", QUESTION)}<p>${ANSWER}</p>`) +
          post(
            "mcrouse",
            `${quote("the manual", source)}<p>${ANSWER} Confirmed here as well, on two servers.</p>`,
          ) +
          "</main>",
      ),
      "https://forum.example.org/threads/backups-stop-half-way.973407/",
    );
    expect(markdown.split("every nightly backup").length - 1).toBe(1);
    expect(markdown).toContain(source);
    expect(markdown).toContain("Confirmed here as well");
  });

  it("leaves an article's quotes alone", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><h1>Backups</h1><p>${QUESTION}</p><blockquote><p>${QUESTION}</p></blockquote><p>${ANSWER}</p></article>`,
      ),
      "https://blog.example.org/2024/backups-stop-half-way",
    );
    expect(markdown.split("every nightly backup").length - 1).toBe(2);
  });
});

describe("forum threads: a reply's subject line", () => {
  it("drops a post heading that repeats the thread's title behind 'Re:', keeps the title and other headings", async () => {
    const post = (subject: string) =>
      `<div class="post"><h3><a href="#p1">${subject}</a></h3><div class="content"><p>${QUESTION}</p></div></div>`;
    const { markdown } = await extractMarkdown(
      `<!doctype html><html><head><title>Backups stop half way - Example Forums</title></head><body><main>` +
        `${post("Backups stop half way")}${post("Re: Backups stop half way")}${post("Re: Backups stop half way")}${post("Restic works for us")}</main></body></html>`,
      "https://forum.example.org/viewtopic.php?t=361697",
    );
    expect(markdown).not.toContain("Re: Backups");
    expect(markdown).toContain("Restic works for us");
    expect(markdown.split("every nightly backup").length - 1).toBe(4);
  });
});

describe("forum threads: who wrote each post", () => {
  const post = (who: string, n: number) =>
    `<article class="message"><div class="message-userDetails"><h4 class="message-name">` +
    `<a href="/members/${who}.${n}/" class="username">${who}</a></h4><h5 class="userTitle">Well-known member</h5>` +
    `<div class="message-userExtras">Joined May 2019 · Messages ${n * 100}</div></div>` +
    `<div class="message-main"><p>Post ${n}: ${QUESTION}</p></div></article>`;

  it("keeps the poster's name from the poster's card, and drops the rank beside it", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><h1>Backups stop half way</h1>${post("linc", 1)}${post("k17", 2)}${post("mcrouse", 3)}</main>`,
      ),
      "https://forum.example.org/threads/backups-stop-half-way.2880547/",
    );
    expect(markdown).toContain("k17");
    expect(markdown.indexOf("linc")).toBeLessThan(markdown.indexOf("Post 1:"));
    expect(markdown).not.toContain("Well-known member");
  });
});

describe("forum threads: a poster's signature", () => {
  const SIGNATURE =
    "Community Leader and Software Engineer. Want to improve your store? I build proven solutions, including " +
    "breadcrumbs, currencies, wishlists and age popups; buying me a coffee is a generous way to say thanks.";
  const post = (body: string, signature: string) =>
    `<article class="ipsEntry"><div class="ipsEntry__post"><div class="ipsRichText"><p>${body}</p></div>` +
    `<div data-role="memberSignature" class="ipsEntry__signature"><div class="ipsRichText"><p>${signature}</p></div></div></div></article>`;

  it("drops a signature longer than the short posts above it, and keeps the posts", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><h1>Roadmap discussion</h1>${post("Is there a public roadmap for next year?", "")}` +
          `${post("Join the insiders' circle for a look at what is planned.", SIGNATURE)}</main>`,
      ),
      "https://forum.example.org/threads/roadmap-discussion.319445/",
    );
    expect(markdown).toContain("insiders' circle");
    expect(markdown).not.toContain("buying me a coffee");
  });

  it("keeps a post whose own class says it has a signature", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><h1>Roadmap discussion</h1><div class="post with-signature"><p>${QUESTION}</p>` +
          `<div class="postsignature"><p>${SIGNATURE}</p></div></div></main>`,
      ),
      "https://bbs.example.org/viewtopic.php?id=298271",
    );
    expect(markdown).toContain("every nightly backup");
    expect(markdown).not.toContain("buying me a coffee");
  });
});
