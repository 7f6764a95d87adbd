/**
 * A small multipart/form-data reader for text fields (the way some clients send every parameter).
 * File parts are skipped: no operation takes a file.
 */
export function parseMultipart(body: Buffer, boundary: string): Array<[string, string]> | undefined {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const fields: Array<[string, string]> = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) return undefined;
  for (;;) {
    pos += delimiter.length;
    // `--` right after a delimiter closes the body.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return fields;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    else return undefined;
    const headerEnd = body.indexOf('\r\n\r\n', pos, 'latin1');
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`, 'latin1'), headerEnd + 4);
    if (next < 0) return undefined;
    const content = body.subarray(headerEnd + 4, next);
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
    if (!disposition) return undefined;
    // `name="x"` as RFC 7578 writes it; some clients leave the quotes out.
    const named = /;\s*name=(?:"([^"]*)"|([^;\s"]+))/i.exec(disposition[1]);
    const name = named?.[1] ?? named?.[2];
    const isFile = /;\s*filename\*?=/i.test(disposition[1]);
    if (name !== undefined && !isFile) fields.push([name, decodePart(content, headers)]);
    pos = next + 2;
  }
}

/**
 * A text part in the charset its own Content-Type names (some clients send ISO-8859-1 text parts by
 * default); UTF-8 when it names none or one this runtime does not know.
 */
export function decodePart(content: Buffer, headers: string): string {
  const charset = /^content-type:[^\r\n]*;\s*charset="?([\w.:-]+)"?/im.exec(headers)?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(content);
    } catch {
      // Unknown label: read as UTF-8.
    }
  }
  return content.toString('utf8');
}

/** The boundary of a multipart content type, unquoted. */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  return boundary && boundary.length <= 200 ? boundary : undefined;
}
