// The House Clerk's paths on the replay server:
//   GET /public_disc/financial-pdfs/{YEAR}FD.zip   the year's index, built from the recording: the
//                                                   most complete recorded index (XML or TXT), cut
//                                                   down to the rows whose PTR PDF is recorded
//   GET /public_disc/ptr-pdfs/{YEAR}/{DocID}.pdf    the recorded PDF
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { zipSync } from 'fflate';
import { filesUnder } from '../../../files.js';
import {
  congressDir,
  notFound,
  type ReplayAnswer,
  type ReplayRequest,
  type ReplayRoutes,
  type ReplaySite,
} from '../replay-site.js';
import { parseHouseIndex } from './index-file.js';

export interface HouseYear {
  /** The file the index was cut from, e.g. "2025FD.txt". */
  sourceFile: string;
  /** Name inside the zip: YYYYFD.xml or YYYYFD.txt. */
  entryName: string;
  /** The recorded index text restricted to rows with a recorded PDF. */
  text: string;
  docIds: Set<string>;
}

export class HouseReplay implements ReplayRoutes {
  private readonly zips = new Map<string, Uint8Array>();

  constructor(
    readonly years: Map<number, HouseYear>,
    readonly pdfs: Map<string, string>,
  ) {}

  get summary(): string {
    const documents = [...this.years.values()].reduce((sum, year) => sum + year.docIds.size, 0);
    return `House: ${documents} PTR PDFs in the ${[...this.years.keys()].sort().join(', ')} indexes`;
  }

  answer({ method, path, withheld }: ReplayRequest): ReplayAnswer | undefined {
    if (method !== 'GET') return undefined;
    const index = /^\/public_disc\/financial-pdfs\/(\d{4})FD\.zip$/.exec(path);
    if (index) return this.index(Number(index[1]), withheld);
    const pdf = /^\/public_disc\/ptr-pdfs\/(\d{4})\/(\d+)\.pdf$/.exec(path);
    if (pdf) return withheld(pdf[2] ?? '') ? notFound() : this.pdf(Number(pdf[1]), pdf[2] ?? '');
    return undefined;
  }

  /** The year's zip without the withheld rows; one zip kept per set of withheld rows. */
  private index(year: number, withheld: (id: string) => boolean): ReplayAnswer {
    const entry = this.years.get(year);
    if (!entry) return notFound();
    const hidden = [...entry.docIds].filter(withheld);
    const key = `${year}:${hidden.join(',')}`;
    let zip = this.zips.get(key);
    if (!zip) {
      const shown = new Set([...entry.docIds].filter((docId) => !withheld(docId)));
      const visible =
        hidden.length === 0
          ? entry
          : { ...entry, ...restrictIndex(entry.text, entry.entryName.endsWith('.xml'), shown) };
      zip = houseIndexZip(visible);
      this.zips.set(key, zip);
    }
    return { status: 200, type: 'application/zip', body: zip };
  }

  private pdf(year: number, docId: string): ReplayAnswer {
    const file = this.pdfs.get(docId);
    if (!file || !this.years.get(year)?.docIds.has(docId)) return notFound();
    return { status: 200, type: 'application/pdf', body: readFileSync(file) };
  }
}

export const houseReplay: ReplaySite = {
  load(dataDir) {
    const root = congressDir(dataDir);
    const pdfs = new Map<string, string>();
    for (const path of filesUnder(join(root, 'raw-house', 'ptr-pdfs'), (name) => /^\d+\.pdf$/i.test(name))) {
      pdfs.set(basename(path).replace(/\.pdf$/i, ''), path);
    }
    const best = new Map<number, { path: string; rows: number }>();
    for (const path of filesUnder(join(root, 'raw-house', 'index'), (name) =>
      /^\d{4}FD.*\.(xml|txt)$/i.test(name),
    )) {
      const year = Number(basename(path).slice(0, 4));
      const rows = parseHouseIndex(readFileSync(path, 'utf8')).length;
      const current = best.get(year);
      // The most complete recording of the year; the XML when both forms are equally complete.
      if (!current || rows > current.rows || (rows === current.rows && /\.xml$/i.test(path))) {
        best.set(year, { path, rows });
      }
    }
    const years = new Map<number, HouseYear>();
    for (const [year, { path }] of best) {
      const xml = /\.xml$/i.test(path);
      const { text, docIds } = restrictIndex(readFileSync(path, 'utf8'), xml, new Set(pdfs.keys()));
      years.set(year, {
        sourceFile: basename(path),
        entryName: `${year}FD.${xml ? 'xml' : 'txt'}`,
        text,
        docIds,
      });
    }
    return new HouseReplay(years, pdfs);
  },
};

/** The index with only the rows whose DocID is in `keep`, every kept byte as recorded. */
function restrictIndex(text: string, xml: boolean, keep: ReadonlySet<string>) {
  const docIds = new Set<string>();
  if (xml) {
    const kept = text.replace(/\s*<Member>[\s\S]*?<\/Member>/g, (block) => {
      const docId = /<DocID>\s*([^<\s]+)\s*<\/DocID>/.exec(block)?.[1] ?? '';
      if (!keep.has(docId)) return '';
      docIds.add(docId);
      return block;
    });
    return { text: kept, docIds };
  }
  const lines = text.split(/(?<=\n)/);
  const header = lines[0] ?? '';
  const rows = lines.slice(1).filter((line) => {
    const docId =
      line
        .replace(/\r?\n$/, '')
        .split('\t')
        .at(-1)
        ?.trim() ?? '';
    if (!keep.has(docId)) return false;
    docIds.add(docId);
    return true;
  });
  return { text: header + rows.join(''), docIds };
}

export function houseIndexZip(year: HouseYear): Uint8Array {
  return zipSync({ [year.entryName]: new TextEncoder().encode(year.text) });
}
