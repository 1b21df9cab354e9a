import { describe, expect, it } from 'vitest';
import { OgeListingError, parseOgeListing } from './listing.js';

describe('OGE listings', () => {
  it('reads the PDF links of an HTML page, resolved against the page', () => {
    const html = `<ul>
      <li><a href="/278t/Scott-Bessent-07.14.2025-278T.pdf">Scott-Bessent-07.14.2025-278T.pdf</a></li>
      <li><a href="Donald%20J.%20Trump%2011.14.2025%20278-T.pdf"><b>Trump</b> 278-T</a></li>
      <li><a href="/about.html">About</a></li>
      <li><a href="/278t/Scott-Bessent-07.14.2025-278T.pdf">again</a></li>
    </ul>`;
    expect(parseOgeListing(html, 'https://mirror.example/278t/')).toEqual([
      {
        url: 'https://mirror.example/278t/Scott-Bessent-07.14.2025-278T.pdf',
        fileName: 'Scott-Bessent-07.14.2025-278T.pdf',
        label: 'Scott-Bessent-07.14.2025-278T.pdf',
        filer: null,
        filedDate: null,
      },
      {
        url: 'https://mirror.example/278t/Donald%20J.%20Trump%2011.14.2025%20278-T.pdf',
        fileName: 'Donald J. Trump 11.14.2025 278-T.pdf',
        label: 'Trump 278-T',
        filer: null,
        filedDate: null,
      },
    ]);
  });

  it('reads a JSON listing with names, filers and dates', () => {
    const json = JSON.stringify({
      documents: [
        { url: 'pdfs/a.pdf', name: 'A 278-T', filer: 'Criswell, Deanne', filed_date: '01/04/2023' },
      ],
    });
    expect(parseOgeListing(json, 'https://mirror.example/index.json')).toEqual([
      {
        url: 'https://mirror.example/pdfs/a.pdf',
        fileName: 'a.pdf',
        label: 'A 278-T',
        filer: 'Criswell, Deanne',
        filedDate: '2023-01-04',
      },
    ]);
  });

  it('says what is wrong with a listing it cannot read', () => {
    expect(() => parseOgeListing('plain text', 'https://x.example/')).toThrow(OgeListingError);
    expect(() => parseOgeListing('{"documents": [{"url": "x.html"}]}', 'https://x.example/')).toThrow(
      /no PDF "url"/,
    );
    expect(() => parseOgeListing('{"files": []}', 'https://x.example/')).toThrow(/"documents"/);
  });
});
