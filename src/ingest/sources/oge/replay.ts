// OGE on the replay server: an HTML listing of every recorded 278 PDF, and each PDF by file name.
//   GET /278t/               the listing
//   GET /278t/{file name}
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesUnder } from '../../../files.js';
import { congressDir, escapeHtml, notFound, type ReplayAnswer, type ReplaySite } from '../replay-site.js';

export const OGE_LISTING_PATH = '/278t/';

export const ogeReplay: ReplaySite = {
  load(dataDir) {
    const pdfs = new Map<string, string>();
    for (const path of filesUnder(join(congressDir(dataDir), 'raw-oge'), (name) => /\.pdf$/i.test(name))) {
      pdfs.set(basename(path), path);
    }
    return {
      summary: `OGE: ${pdfs.size} PDFs at ${OGE_LISTING_PATH}`,
      answer({ method, path, withheld }): ReplayAnswer | undefined {
        if (method !== 'GET' || !path.startsWith(OGE_LISTING_PATH)) return undefined;
        if (path === OGE_LISTING_PATH) return listing([...pdfs.keys()].filter((name) => !withheld(name)));
        const name = path.slice(OGE_LISTING_PATH.length);
        const file = withheld(name) ? undefined : pdfs.get(name);
        return file ? { status: 200, type: 'application/pdf', body: readFileSync(file) } : notFound();
      },
    };
  },
};

function listing(names: readonly string[]): ReplayAnswer {
  const links = names
    .map(
      (name) => `<li><a href="${OGE_LISTING_PATH}${encodeURIComponent(name)}">${escapeHtml(name)}</a></li>`,
    )
    .join('\n');
  return {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: `<!DOCTYPE html><html><head><title>OGE 278-T</title></head><body><ul>\n${links}\n</ul></body></html>`,
  };
}
