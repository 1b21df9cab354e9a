// An error answer a site's storage sends (S3's XML <Error>) saved or served in place of the
// document: recognised before any source's reader, so the reason says what it is.

/** The reason, when the text is such an error body; null otherwise. */
export function errorBodyReason(text: string): string | null {
  const head = text.slice(0, 4096);
  const s3Error = /<Error>\s*<Code>([^<]*)<\/Code>\s*(?:<Message>([^<]*)<\/Message>)?/i.exec(head);
  if (!s3Error) return null;
  const detail = [s3Error[1], s3Error[2]].filter(Boolean).join(': ');
  return `not a PDF: the file is an XML error response from the server (${detail}), saved in place of the document`;
}
