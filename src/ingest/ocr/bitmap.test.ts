// Constructed images: what the pixel helpers keep and clear.
import { describe, expect, it } from 'vitest';
import { blankImage, withoutEdgeSpecks } from './bitmap.js';

describe('withoutEdgeSpecks', () => {
  it("clears small pieces at the image's edge, and keeps small pieces inside and large ones at the edge", () => {
    const image = blankImage(30, 12);
    const ink = (x: number, y: number) => {
      image.data[y * 30 + x] = 0;
    };
    // A rule's broken end: three pixels down the left edge from the top corner.
    for (let y = 0; y < 3; y++) ink(0, y);
    // A date's dash inside: two pixels.
    ink(14, 6);
    ink(15, 6);
    // A speck cut by the bottom edge.
    ink(20, 11);
    ink(21, 11);
    // A digit's stroke reaching the right edge: twelve pixels.
    for (let y = 0; y < 12; y++) ink(29, y);
    const cleared = withoutEdgeSpecks(image, 8);
    const inked = (x: number, y: number) => (cleared.data[y * 30 + x] ?? 255) < 160;
    expect([0, 1, 2].map((y) => inked(0, y))).toEqual([false, false, false]);
    expect(inked(14, 6) && inked(15, 6)).toBe(true);
    expect(inked(20, 11) || inked(21, 11)).toBe(false);
    expect(Array.from({ length: 12 }, (_, y) => inked(29, y)).every(Boolean)).toBe(true);
    // The image given is left as it was.
    expect(image.data[0]).toBe(0);
  });
});
