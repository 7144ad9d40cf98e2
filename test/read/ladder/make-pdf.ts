import zlib from "node:zlib";

/**
 * A minimal but valid PDF (catalog, pages, Helvetica, one content stream per page, exact xref offsets), built
 * in the test so no binary fixture is needed. Each page is a list of paragraphs; each paragraph a list of lines.
 */
export function makePdf(
  pages: string[][],
  title?: string,
  options: { flate?: boolean; padding?: number } = {},
): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  pages.forEach((paragraphs, i) => {
    const id = pageIds[i];
    let y = 760;
    const ops: string[] = ["BT", "/F1 12 Tf"];
    for (const paragraph of paragraphs) {
      for (const line of paragraph.split("\n")) {
        ops.push(`1 0 0 1 72 ${y} Tm (${escapePdfString(line)}) Tj`);
        y -= 16;
      }
      y -= 20;
    }
    // Trailing spaces are legal in a content stream: a compressed run of them inflates to any size (a PDF bomb).
    ops.push(`ET${" ".repeat(options.padding ?? 0)}`);
    const plain = ops.join("\n");
    const stream = options.flate ? zlib.deflateSync(plain).toString("latin1") : plain;
    const filter = options.flate ? " /Filter /FlateDecode" : "";
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] =
      `<< /Length ${Buffer.byteLength(stream, "latin1")}${filter} >>\nstream\n${stream}\nendstream`;
  });
  const infoId = objects.length;
  if (title) objects[infoId] = `<< /Title (${escapePdfString(title)}) >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, "latin1");
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R${title ? ` /Info ${infoId} 0 R` : ""} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}
