import type { LogoType } from '@solar/shared';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG (RFC 2083 / ISO 15948): the signature, IHDR as the first chunk and IEND as the last, so that a
 * file that only starts like a PNG (a renamed page with the eight bytes pasted in front) is refused.
 */
function isPng(data: Buffer): boolean {
  return (
    data.length >= 8 + 25 + 12 &&
    data.subarray(0, 8).equals(PNG_SIGNATURE) &&
    data.readUInt32BE(8) === 13 &&
    data.toString('latin1', 12, 16) === 'IHDR' &&
    data.toString('latin1', data.length - 8, data.length - 4) === 'IEND'
  );
}

/** A JPEG (ITU T.81): SOI and a marker after it, EOI at the end (trailing padding bytes of 0 allowed). */
function isJpeg(data: Buffer): boolean {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8 || data[2] !== 0xff) return false;
  let end = data.length;
  while (end > 4 && data[end - 1] === 0) end--;
  return data[end - 2] === 0xff && data[end - 1] === 0xd9;
}

/** A WebP: a RIFF container of form type WEBP whose declared size is the file's, with a VP8 chunk. */
function isWebp(data: Buffer): boolean {
  return (
    data.length >= 20 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP' &&
    data.readUInt32LE(4) + 8 === data.length &&
    /^VP8[ LX]$/.test(data.toString('latin1', 12, 16))
  );
}

/**
 * The image type of a logo from its bytes alone (the name and declared type of an upload are the client's
 * word and are ignored), or null: not PNG, JPEG or WebP. SVG and everything else is refused.
 */
export function logoTypeOf(data: Buffer): LogoType | null {
  if (isPng(data)) return 'image/png';
  if (isJpeg(data)) return 'image/jpeg';
  if (isWebp(data)) return 'image/webp';
  return null;
}
