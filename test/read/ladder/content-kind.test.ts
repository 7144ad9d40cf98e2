import { describe, expect, it } from "vitest";
import { classifyContent, prettyJson } from "../../../src/read/content-kind.js";

const bytes = (s: string) => Buffer.from(s, "latin1");
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe("classifyContent", () => {
  it("believes text headers when the bytes agree", () => {
    expect(classifyContent("text/markdown", bytes("# Hi"))).toEqual({ kind: "markdown" });
    expect(classifyContent("text/x-markdown", bytes("# Hi"))).toEqual({ kind: "markdown" });
    expect(classifyContent("text/html", bytes("<p>hi</p>"))).toEqual({ kind: "html" });
    expect(classifyContent("application/xhtml+xml", bytes("<p>hi</p>"))).toEqual({ kind: "html" });
    expect(classifyContent("application/ld+json", bytes("{}"))).toEqual({ kind: "json" });
    expect(classifyContent("text/plain", bytes("hello"))).toEqual({ kind: "text" });
    expect(classifyContent("text/csv", bytes("a,b"))).toEqual({ kind: "text" });
    expect(classifyContent("application/rss+xml", bytes("<rss/>"))).toEqual({
      kind: "format",
      format: "feed",
    });
    expect(classifyContent("application/xml", bytes("<config/>"))).toEqual({ kind: "text" });
  });

  it("recognises a PDF by its %PDF- signature whatever the header says", () => {
    expect(classifyContent("application/octet-stream", bytes("%PDF-1.7\n..."))).toEqual({
      kind: "format",
      format: "pdf",
    });
    expect(classifyContent("text/html", bytes("%PDF-1.4\n"))).toEqual({ kind: "format", format: "pdf" });
    expect(classifyContent("application/pdf", bytes("%PDF-1.4\n"))).toEqual({
      kind: "format",
      format: "pdf",
    });
  });

  it("names binaries, including binary bytes served as text/html", () => {
    expect(classifyContent("image/jpeg", bytes("\xff\xd8\xff\xe0"))).toEqual({
      kind: "binary",
      type: "image/jpeg",
    });
    expect(classifyContent("text/html", PNG)).toEqual({ kind: "binary", type: "image/png" });
    expect(classifyContent("", bytes("PK\x03\x04rest"))).toEqual({ kind: "binary", type: "application/zip" });
    expect(classifyContent("audio/mpeg", bytes("ID3\x04"))).toEqual({ kind: "binary", type: "audio/mpeg" });
    expect(classifyContent("video/mp4", bytes("\0\0\0\x18ftypmp42...."))).toEqual({
      kind: "binary",
      type: "video/mp4",
    });
    expect(classifyContent("image/svg+xml", bytes("<svg/>"))).toEqual({
      kind: "binary",
      type: "image/svg+xml",
    });
    expect(classifyContent("application/octet-stream", Buffer.from([1, 2, 0, 4, 5]))).toEqual({
      kind: "binary",
      type: "application/octet-stream",
    });
    expect(classifyContent("text/html", Buffer.from([3, 200, 0, 17, 99, 250]))).toMatchObject({
      kind: "binary",
    });
  });

  it("sniffs unlabelled text", () => {
    expect(classifyContent("", bytes("<!DOCTYPE html><p>x</p>"))).toEqual({ kind: "html" });
    expect(classifyContent("application/octet-stream", bytes('{"a":1}'))).toEqual({ kind: "json" });
    expect(classifyContent("", bytes("just words"))).toEqual({ kind: "text" });
  });

  it("does not mistake UTF-16 text for binary", () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello", "utf16le")]);
    expect(classifyContent("text/plain", utf16)).toEqual({ kind: "text" });
  });
});

describe("prettyJson", () => {
  it("indents JSON and leaves anything else as it came", () => {
    expect(prettyJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson("not json {")).toBe("not json {");
  });
});
