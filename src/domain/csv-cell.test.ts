import { describe, expect, it } from 'vitest';
import { csvCell } from './csv-cell.js';

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/","Click me")', '\'=HYPERLINK("http://evil.example/","Click me")'],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
  ])('neutralises the formula start of %j', (text, written) => {
    expect(csvCell(text)).toBe(written);
  });

  it('leaves other text, numbers (negative ones too), booleans and null as they are', () => {
    expect(csvCell('NVIDIA Corporation - Common Stock')).toBe('NVIDIA Corporation - Common Stock');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-11.44)).toBe('-11.44');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ committee: 'HSWM' })).toBe('{"committee":"HSWM"}');
  });
});
