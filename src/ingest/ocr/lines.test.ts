// Clearing a page's rules on constructed pages: what withoutRules (for ink measures) and
// withoutRulesByShape (for reading text) take off and leave of a letter standing against a rule.
import { describe, expect, it } from 'vitest';
import { blankImage, type GrayImage, isInk } from './bitmap.js';
import { horizontalLines, withoutRules, withoutRulesByShape } from './lines.js';

/**
 * A page with one row rule four lines thick (rows 100-103) and, below it as on the dark pages of
 * 8220834, a bold "T" whose top bar stands a line below the rule (rows 105-108), and a speck of
 * the rule's ragged edge (row 104) where no letter stands.
 */
function page(): GrayImage {
  const image = blankImage(800, 200);
  const ink = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) image.data[y * image.width + x] = 0;
  };
  ink(20, 780, 100, 103);
  ink(200, 230, 105, 108);
  ink(212, 218, 105, 130);
  ink(500, 504, 104, 104);
  return image;
}

const inkedIn = (image: GrayImage, x0: number, x1: number, y0: number, y1: number) => {
  let count = 0;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (isInk(image, x, y)) count++;
  return count;
};

describe('clearing rules', () => {
  const image = page();
  const rules = horizontalLines(image, { minLength: 200, maxGap: 3 });

  it('finds the rule', () => {
    expect(rules).toHaveLength(1);
  });

  it('by position takes the top of a letter standing against the rule with it', () => {
    const cleared = withoutRules(image, rules, []);
    expect(inkedIn(cleared, 20, 780, 100, 103)).toBe(0);
    // The bar's lines within two of the rule go, away from the stem.
    expect(inkedIn(cleared, 200, 210, 105, 108)).toBeLessThan(11 * 4);
  });

  it('by shape takes the rule and its ragged edge, and leaves the letter whole', () => {
    const cleared = withoutRulesByShape(image, rules, []);
    expect(inkedIn(cleared, 20, 780, 100, 103)).toBe(0);
    expect(inkedIn(cleared, 500, 504, 104, 104)).toBe(0);
    expect(inkedIn(cleared, 200, 230, 105, 108)).toBe(31 * 4);
    expect(inkedIn(cleared, 212, 218, 109, 130)).toBe(7 * 22);
  });
});
