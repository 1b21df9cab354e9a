// A constructed corpus for the LSA model's tests: words that share records ("airline" and "Delta")
// end up close; the options train a small model on it quickly and always alike.
import type { LsaOptions } from '../search/lsa.js';

export const LSA_TEST_CORPUS: readonly string[] = [
  'Delta Air Lines airline Industrials',
  'United Airlines airline Industrials',
  'Southwest Airlines airline carrier',
  'Delta airline flights carrier',
  'Lockheed Martin aerospace defense contractor',
  'Raytheon aerospace defense missiles',
  'Northrop Grumman defense contractor aerospace',
  'General Dynamics defense submarines',
  'Pfizer pharmaceutical vaccine drugs',
  'Moderna vaccine biotechnology drugs',
  'Merck pharmaceutical drugs',
  'Johnson pharmaceutical vaccine',
];

export const LSA_TEST_OPTIONS: LsaOptions = { dimensions: 4, maxTerms: 100, powerIterations: 2, seed: 1 };
