import { describe, expect, it } from "vitest";
import { classifyContent } from "../../../src/read/content-kind.js";
import { ap, makeDocx, makeEpub, makeOdf, makePptx, makeXlsx, shape, wp } from "./make-docs.js";
import { makeZip } from "./make-zip.js";

const docs = {
  docx: makeDocx(wp("Hello")),
  xlsx: makeXlsx([{ name: "S", rows: "" }], []),
  pptx: makePptx([{ shapes: shape("title", [ap("Hi")]) }]),
  odt: makeOdf("text", "<text:p>Hi</text:p>"),
  ods: makeOdf("spreadsheet", ""),
  odp: makeOdf("presentation", ""),
  epub: makeEpub([{ id: "c1", html: "<p>Hi</p>" }]),
};

describe("classifyContent: office documents and e-books", () => {
  it("knows each format from the zip's own markers, whatever the header says", () => {
    for (const [format, bytes] of Object.entries(docs)) {
      for (const type of ["application/octet-stream", "", "application/zip", "text/html"])
        expect(classifyContent(type, bytes), `${format} as ${type || "nothing"}`).toEqual({
          kind: "format",
          format,
        });
    }
  });

  it("takes the header's document type for a zip without markers, and leaves any other zip a binary", () => {
    const bare = makeZip([{ name: "readme.txt", data: "hi" }]);
    expect(
      classifyContent("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", bare),
    ).toEqual({ kind: "format", format: "xlsx" });
    expect(classifyContent("application/vnd.oasis.opendocument.text", bare)).toEqual({
      kind: "format",
      format: "odt",
    });
    expect(classifyContent("application/epub+zip", bare)).toEqual({ kind: "format", format: "epub" });
    expect(classifyContent("application/zip", bare)).toEqual({ kind: "binary", type: "application/zip" });
  });

  it("does not believe a document type for bytes that are not a zip", () => {
    expect(
      classifyContent(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        Buffer.from("<html>"),
      ),
    ).toEqual({
      kind: "binary",
      type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    });
  });
});
