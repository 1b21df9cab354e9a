import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markedSection, OCR_ROBUSTNESS, OGE_OCR, writeMarkedSection } from './sections.js';

describe('ACCURACY.md sections between markers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-sections-'));
  const file = join(dir, 'ACCURACY.md');
  afterEach(() => rmSync(file, { force: true }));

  it('replaces a section in place, appends a missing one, and keeps the text around them', () => {
    writeFileSync(file, `# Accuracy\n\nabove\n\n${OGE_OCR[0]}\nold\n${OGE_OCR[1]}\n\nbelow\n`);
    writeMarkedSection(OGE_OCR, '| $1,001 - $15,000 | $& |\n', file);
    writeMarkedSection(OCR_ROBUSTNESS, 'new table', file);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      `# Accuracy\n\nabove\n\n${OGE_OCR[0]}\n| $1,001 - $15,000 | $& |\n${OGE_OCR[1]}\n\nbelow\n\n${OCR_ROBUSTNESS[0]}\nnew table\n${OCR_ROBUSTNESS[1]}\n`,
    );
    expect(markedSection(text, OCR_ROBUSTNESS)).toBe(`${OCR_ROBUSTNESS[0]}\nnew table\n${OCR_ROBUSTNESS[1]}`);
    expect(markedSection('no markers', OGE_OCR)).toBeNull();
  });
});
