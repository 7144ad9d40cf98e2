import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { CappedZip, ZIP_LIMITS } from "../../../src/read/formats/zip.js";
import { makeZip, zerosBomb } from "./make-zip.js";

const soon = () => Deadline.after(30_000);

async function open(bytes: Buffer, limits = ZIP_LIMITS) {
  const opened = await CappedZip.open(bytes, soon(), limits);
  if (!opened.ok) throw new Error(opened.message);
  return opened.zip;
}

describe("CappedZip", () => {
  it("lists entries and inflates them", async () => {
    const zip = await open(
      makeZip([
        { name: "mimetype", data: "application/epub+zip", store: true },
        { name: "dir/", data: "" },
        { name: "dir/a.xml", data: "<a>hello</a>" },
      ]),
    );
    expect(zip.names()).toEqual(["mimetype", "dir/a.xml"]);
    const part = await zip.read("dir/a.xml");
    expect(part.ok && part.bytes.toString()).toBe("<a>hello</a>");
    expect(zip.inflated()).toBe(12);
    expect(await zip.read("nope.xml")).toMatchObject({ ok: false, code: "missing_part" });
  });

  it("stops a part that inflates to 400 MB at the entry cap, counting what it inflates", async () => {
    const bomb = zerosBomb(400);
    expect(bomb.bytes.length).toBeLessThan(1024 * 1024);
    const zip = await open(makeZip([{ name: "word/document.xml", deflated: bomb }]));
    const part = await zip.read("word/document.xml");
    expect(part).toMatchObject({ ok: false, status: "unsupported", code: "too_large" });
    expect(!part.ok && part.message).toMatch(/word\/document\.xml inflates past 32 MB/);
    expect(zip.inflated()).toBe(0);
  });

  it("cuts a part at the cap when asked to, and keeps what was inflated", async () => {
    const zip = await open(makeZip([{ name: "sheet.xml", deflated: zerosBomb(8) }]), {
      ...ZIP_LIMITS,
      maxEntryBytes: 1024 * 1024,
    });
    const part = await zip.read("sheet.xml", { cut: true });
    expect(part.ok && part.cut).toBe(true);
    expect(part.ok && part.bytes.length).toBe(1024 * 1024);
  });

  it("caps the total of all parts, so many parts under the entry cap cannot add up", async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.xml`, deflated: zerosBomb(3) }));
    const zip = await open(makeZip(entries), {
      ...ZIP_LIMITS,
      maxEntryBytes: 4 * 1024 * 1024,
      maxTotalBytes: 10 * 1024 * 1024,
    });
    const reads = [];
    for (const e of entries) reads.push(await zip.read(e.name));
    expect(reads.map((r) => r.ok)).toEqual([true, true, true, false, false]);
    expect(reads[3]).toMatchObject({ code: "too_large", message: expect.stringMatching(/10 MB in all/) });
    expect(zip.inflated()).toBe(9 * 1024 * 1024);
  });

  it("never trusts a declared size: a part declaring 100 bytes that inflates to 400 MB is stopped", async () => {
    const zip = await open(makeZip([{ name: "content.xml", deflated: zerosBomb(400), declaredSize: 100 }]));
    const part = await zip.read("content.xml");
    // yauzl stops the stream once it passes the declared 100 bytes: nothing near 400 MB is inflated.
    expect(part).toMatchObject({ ok: false, status: "error", code: "corrupt_archive" });
    expect(!part.ok && part.message).toMatch(/too many bytes/);
    expect(zip.inflated()).toBe(0);
  });

  it("refuses a part whose inflated size passes the cap even when it declares a size under it", async () => {
    const zip = await open(
      makeZip([{ name: "content.xml", deflated: zerosBomb(40), declaredSize: 40 * 1024 * 1024 }]),
      {
        ...ZIP_LIMITS,
        maxEntryBytes: 2 * 1024 * 1024,
      },
    );
    expect(await zip.read("content.xml")).toMatchObject({ code: "too_large" });
  });

  it("refuses 100,000 tiny entries from the directory's count, before reading any", async () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      name: `e/${i}.xml`,
      data: "x",
      store: true,
    }));
    const opened = await CappedZip.open(makeZip(entries), soon());
    expect(opened).toMatchObject({ ok: false, status: "unsupported", code: "too_large" });
    expect(!opened.ok && opened.message).toMatch(/100000 entries, over 10000/);
  });

  it("says a broken archive is broken", async () => {
    expect(await CappedZip.open(Buffer.from("PK\x03\x04 not really"), soon())).toMatchObject({
      ok: false,
      status: "error",
      code: "corrupt_archive",
    });
  });

  it("stops at the deadline", async () => {
    const opened = await CappedZip.open(makeZip([{ name: "a.xml", data: "<a/>" }]), Deadline.after(0));
    expect(opened.ok ? await opened.zip.read("a.xml") : opened).toMatchObject({ status: "timeout" });
  });
});
