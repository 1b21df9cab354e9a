// Constructed images: what the pixel helpers keep and clear.
import { describe, expect, it } from 'vitest';
import { blankImage, type GrayImage, rotateSmall, withoutEdgeSpecks, withoutStrayStripes } from './bitmap.js';

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

describe('rotateSmall', () => {
  // A bar two pixels tall across a 200 x 41 page, turned half a degree: it rises by
  // 200 x tan(0.5 degrees), about 1.7 pixels, from one end to the other.
  const page = (ink: number) => {
    const image = blankImage(200, 41);
    for (let x = 0; x < 200; x++) for (const y of [19, 20]) image.data[y * 200 + x] = ink;
    return image;
  };
  const column = (image: GrayImage, x: number) =>
    Array.from({ length: 41 }, (_, y) => image.data[y * 200 + x] ?? 255);
  const darkest = (image: GrayImage, x: number) => column(image, x).indexOf(Math.min(...column(image, x)));

  it("turns a grey scan about its centre, each pixel weighed from the page's nearest four", () => {
    const turned = rotateSmall(page(30), 0.5);
    // Clockwise: the left end goes up, the right end down; the centre stays.
    expect(darkest(turned, 10)).toBeLessThan(darkest(turned, 190));
    expect([19, 20]).toContain(darkest(turned, 100));
    // Where the bar crosses between pixel rows its edges are grey, not a step of dark and white.
    expect(new Set(turned.data.filter((value) => value > 40 && value < 235)).size).toBeGreaterThan(10);
    // Every column keeps the bar's ink: as dark as two half-covered rows at least.
    for (let x = 2; x < 198; x++) expect(Math.min(...column(turned, x))).toBeLessThan(150);
    expect(rotateSmall(page(30), 0.005).data).toEqual(page(30).data);
  });

  it('keeps a black-and-white scan black and white', () => {
    const turned = rotateSmall(page(0), 0.5);
    expect(new Set(turned.data)).toEqual(new Set([0, 255]));
    expect(darkest(turned, 10)).toBeLessThan(darkest(turned, 190));
  });
});
