/** Just enough MIME decoding to read the .eml files of the outbox in tests. */

function decodeWords(header: string): string {
  return header.replace(
    /=\?([^?]+)\?([BQbq])\?([^?]*)\?=\s*(?==\?)?/g,
    (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
  );
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export interface ParsedMail {
  to: string;
  subject: string;
  /** Every text part, decoded, joined. */
  body: string;
}

/** Headers (unfolded, encoded words decoded) and the decoded text of every part. */
export function parseEml(eml: string): ParsedMail {
  const [head = '', ...rest] = eml.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  const raw = rest.join('\n\n');
  // Decode each MIME part by its transfer encoding.
  const parts = raw.split(/^--.*$/m).map((part) => {
    const [partHead = '', ...partBody] = part.split(/\r?\n\r?\n/);
    const content = partBody.join('\n\n');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(partHead))
      return decodeQuotedPrintable(content);
    if (/content-transfer-encoding:\s*base64/i.test(partHead)) {
      return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
    }
    return part;
  });
  return {
    to: headers.get('to') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    body: parts.join('\n'),
  };
}
