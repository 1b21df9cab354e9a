// Debian's Chromium driven by playwright-core (never a downloaded browser), for the end-to-end
// tests and the screenshot script.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { requirement } from './requirements.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Whether the browser tests can run (one line when they cannot; in CI, a failure). */
export function chromiumReady(): boolean {
  return requirement(`Chromium (${CHROMIUM_PATH})`, chromiumAvailable(), 'install: apt-get install chromium');
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}
