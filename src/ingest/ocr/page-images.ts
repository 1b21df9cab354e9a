// A document that is only page images (a Senate eFD paper filing shows each page as an image) as
// one byte string, so the OCR stage, its page checkpoints (keyed by the bytes' hash) and the
// document archive handle it as they handle a scanned PDF. The bundle is a header line and each
// image as its length in bytes, a newline and the image's own bytes (PNG, JPEG or GIF).
const MAGIC = 'dcledger-page-images 1\n';

export function encodePageImages(images: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [new TextEncoder().encode(MAGIC)];
  for (const image of images) parts.push(new TextEncoder().encode(`${image.length}\n`), image);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function isPageImages(bytes: Uint8Array): boolean {
  return new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) === MAGIC;
}

/** The images of a bundle, in page order; throws on a bundle cut short. */
export function decodePageImages(bytes: Uint8Array): Uint8Array[] {
  if (!isPageImages(bytes)) throw new Error('not a page-image bundle');
  const images: Uint8Array[] = [];
  let at = MAGIC.length;
  while (at < bytes.length) {
    const newline = bytes.indexOf(10, at);
    const length = Number(new TextDecoder().decode(bytes.subarray(at, newline)));
    if (newline < 0 || !Number.isInteger(length) || length < 0 || newline + 1 + length > bytes.length) {
      throw new Error(`a page-image bundle cut short at byte ${at}`);
    }
    images.push(bytes.subarray(newline + 1, newline + 1 + length));
    at = newline + 1 + length;
  }
  return images;
}
