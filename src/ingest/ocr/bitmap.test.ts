// Constructed images: what the pixel helpers keep and clear.
import { describe, expect, it } from 'vitest';
import { blankImage, withoutEdgeSpecks, withoutStrayStripes } from './bitmap.js';

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

describe('withoutStrayStripes', () => {
  const options = { maxHeight: 4, minGap: 3, minInk: 40 };
  // A 100 x 40 cell: a block of "text" on rows 10-25, then what the case draws.
  const cell = (draw: (ink: (x: number, y: number) => void) => void) => {
    const image = blankImage(100, 40);
    const ink = (x: number, y: number) => {
      image.data[y * 100 + x] = 0;
    };
    for (let y = 10; y <= 25; y++) for (let x = 5; x < 60; x += 2) ink(x, y);
    draw(ink);
    return image;
  };
  const inkedRows = (image: ReturnType<typeof blankImage>) =>
    Array.from({ length: image.height }, (_, y) => y).filter((y) =>
      image.data.subarray(y * image.width, (y + 1) * image.width).some((value) => value < 160),
    );
  const text = Array.from({ length: 16 }, (_, i) => 10 + i);

  it('clears a wide thin stripe apart from the text below or above it', () => {
    const below = cell((ink) => {
      for (let y = 31; y <= 33; y++) for (let x = 0; x < 50; x++) ink(x, y);
    });
    expect(inkedRows(withoutStrayStripes(below, options))).toEqual(text);
    const above = cell((ink) => {
      for (let x = 0; x < 90; x++) ink(x, 2);
    });
    expect(inkedRows(withoutStrayStripes(above, options))).toEqual(text);
  });

  it('keeps a stripe touching the text, one too close to it, a narrow mark and a tall piece', () => {
    const touching = cell((ink) => {
      for (let x = 0; x < 50; x++) ink(x, 26);
    });
    const close = cell((ink) => {
      for (let x = 0; x < 50; x++) ink(x, 28);
    });
    const narrow = cell((ink) => {
      for (let x = 20; x < 24; x++) ink(x, 32);
    });
    const tall = cell((ink) => {
      for (let y = 30; y <= 37; y++) for (let x = 0; x < 50; x++) ink(x, y);
    });
    for (const image of [touching, close, narrow, tall])
      expect(inkedRows(withoutStrayStripes(image, options))).toEqual(inkedRows(image));
  });
});
