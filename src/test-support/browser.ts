// Debian's Chromium driven by playwright-core (never a downloaded browser), for the end-to-end
// tests and the screenshot script.
import { existsSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
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

/** axe's serious and critical findings on the page, each as "url: rule (nodes) help". */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${page.url()}: ${violation.id} (${violation.nodes.length}) ${violation.help}`);
}
