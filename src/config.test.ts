import { describe, expect, it } from 'vitest';
import { ConfigError } from './config/read.js';
import { readWebhookSettings } from './config/webhooks.js';
import { loadConfig, readSelfService } from './config.js';

describe('webhook settings', () => {
  it('defaults: nothing exempt, no key, 15 s timeout, lease beyond it, worker on in serve', () => {
    expect(readWebhookSettings({})).toEqual({
      allowCidrs: [],
      secretKey: null,
      secretKeyFile: undefined,
      timeoutMs: 15_000,
      concurrency: 32,
      leaseMs: 75_000,
      pollMs: 1000,
      workerInServe: true,
      perSubscription: 8,
      perHost: 16,
    });
  });

  it('reads the secret key as hex or base64, and refuses anything but 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: hex }).secretKey).toEqual(
      Buffer.from(hex, 'hex'),
    );
    const base64 = Buffer.alloc(32, 9).toString('base64');
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: base64 }).secretKey).toEqual(
      Buffer.alloc(32, 9),
    );
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: 'short' })).toThrow(ConfigError);
  });

  it('refuses a lease no longer than the timeout, and bad numbers and switches', () => {
    expect(() =>
      readWebhookSettings({ DCLEDGER_WEBHOOK_TIMEOUT_MS: '5000', DCLEDGER_WEBHOOK_LEASE_MS: '5000' }),
    ).toThrow(/LEASE_MS/);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_TIMEOUT_MS: '5000' }).leaseMs).toBe(65_000);
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_WORKER: 'off' }).workerInServe).toBe(false);
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_WORKER: 'maybe' })).toThrow(ConfigError);
    expect(readWebhookSettings({})).toMatchObject({ concurrency: 32, perSubscription: 8, perHost: 16 });
    expect(
      readWebhookSettings({ DCLEDGER_WEBHOOK_CONCURRENCY: '3', DCLEDGER_WEBHOOK_PER_HOST: '2' }),
    ).toMatchObject({ perSubscription: 1, perHost: 2 });
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_PER_SUBSCRIPTION: '0' })).toThrow(ConfigError);
  });
});

describe('ingest settings', () => {
  it('defaults to the official sites, a local archive and a 15-minute schedule', () => {
    expect(loadConfig({}).ingest).toEqual({
      settings: {
        house: { baseUrl: 'https://disclosures-clerk.house.gov' },
        senate: { baseUrl: 'https://efdsearch.senate.gov' },
        oge: { baseUrl: undefined, indexPath: '/278t/' },
        sec: { baseUrl: 'https://www.sec.gov', contact: undefined, intervalMs: 100 },
        lobbying: { baseUrl: 'https://lda.senate.gov' },
        contracts: { baseUrl: 'https://api.usaspending.gov' },
        bills: { baseUrl: 'https://api.congress.gov', apiKey: undefined },
        votes: { baseUrl: 'https://voteview.com' },
      },
      archiveDir: './var/archive',
      timeoutMs: 30_000,
      retries: 4,
      backoffMs: 2_000,
      minIntervalMs: 1_000,
      userAgent: 'dcledger/0.1 (self-hosted disclosure ingest)',
      intervalMinutes: 15,
      sources: ['house', 'senate', 'oge'],
      since: undefined,
      maxDocumentMb: { all: undefined, bySource: {} },
      pdfWorkerMemoryMb: 512,
      ocr: true,
    });
  });

  it('reads the document size limits: one for all sources, one per source', () => {
    const ingest = loadConfig({
      DCLEDGER_MAX_DOCUMENT_MB: '40',
      DCLEDGER_HOUSE_MAX_DOCUMENT_MB: '5',
      DCLEDGER_LOBBYING_MAX_DOCUMENT_MB: ' 300 ',
      DCLEDGER_PDF_WORKER_MEMORY_MB: '256',
    }).ingest;
    expect(ingest.maxDocumentMb).toEqual({ all: 40, bySource: { house: 5, lobbying: 300 } });
    expect(ingest.pdfWorkerMemoryMb).toBe(256);
    expect(() => loadConfig({ DCLEDGER_OGE_MAX_DOCUMENT_MB: '0' })).toThrow(/DCLEDGER_OGE_MAX_DOCUMENT_MB/);
    expect(() => loadConfig({ DCLEDGER_NASDAQ_MAX_DOCUMENT_MB: '5' })).toThrow(/"nasdaq" is not a source/);
    expect(() => loadConfig({ DCLEDGER_MAX_DOCUMENT_MB: 'lots' })).toThrow(/DCLEDGER_MAX_DOCUMENT_MB/);
  });

  it('reads scans by OCR in ingest unless DCLEDGER_OCR is off', () => {
    expect(loadConfig({ DCLEDGER_OCR: 'off' }).ingest.ocr).toBe(false);
    expect(loadConfig({ DCLEDGER_OCR: 'on' }).ingest.ocr).toBe(true);
    expect(() => loadConfig({ DCLEDGER_OCR: 'sometimes' })).toThrow(/DCLEDGER_OCR must be on or off/);
  });

  it('keeps EDGAR at 10 requests a second or fewer, whatever DCLEDGER_SEC_INTERVAL_MS says', () => {
    const ingest = loadConfig({
      DCLEDGER_SEC_INTERVAL_MS: '20',
      DCLEDGER_SEC_CONTACT: ' ops@example.com ',
    }).ingest;
    expect(ingest.settings.sec).toMatchObject({ intervalMs: 100, contact: 'ops@example.com' });
    expect(loadConfig({ DCLEDGER_SEC_INTERVAL_MS: '250' }).ingest.settings.sec?.intervalMs).toBe(250);
  });

  it('reads every setting from the environment', () => {
    const ingest = loadConfig({
      DCLEDGER_HOUSE_BASE_URL: 'http://127.0.0.1:9000/',
      DCLEDGER_SENATE_BASE_URL: 'http://127.0.0.1:9001',
      DCLEDGER_OGE_BASE_URL: 'https://mirror.example/oge/',
      DCLEDGER_OGE_INDEX_PATH: '/index.json',
      DCLEDGER_ARCHIVE_DIR: '/srv/archive',
      DCLEDGER_FETCH_TIMEOUT_MS: '5000',
      DCLEDGER_FETCH_RETRIES: '0',
      DCLEDGER_FETCH_BACKOFF_MS: '100',
      DCLEDGER_FETCH_INTERVAL_MS: '0',
      DCLEDGER_INGEST_INTERVAL_MINUTES: '0',
      DCLEDGER_INGEST_SOURCES: 'senate, house',
      DCLEDGER_INGEST_SINCE: '2024-01-01',
    }).ingest;
    expect(loadConfig({ DCLEDGER_LDA_BASE_URL: 'http://127.0.0.1:9002/' }).ingest.settings.lobbying).toEqual({
      baseUrl: 'http://127.0.0.1:9002',
    });
    expect(
      loadConfig({ DCLEDGER_CONGRESS_API_KEY: ' key ', DCLEDGER_VOTEVIEW_BASE_URL: 'http://127.0.0.1:9003' })
        .ingest.settings,
    ).toMatchObject({ bills: { apiKey: 'key' }, votes: { baseUrl: 'http://127.0.0.1:9003' } });
    expect(ingest).toMatchObject({
      settings: {
        house: { baseUrl: 'http://127.0.0.1:9000' },
        senate: { baseUrl: 'http://127.0.0.1:9001' },
        oge: { baseUrl: 'https://mirror.example/oge', indexPath: '/index.json' },
      },
      archiveDir: '/srv/archive',
      timeoutMs: 5000,
      retries: 0,
      backoffMs: 100,
      minIntervalMs: 0,
      intervalMinutes: 0,
      sources: ['senate', 'house'],
      since: '2024-01-01',
    });
  });

  it('takes the ingest interval in fractions of a minute (0.25: every 15 s), 15 by default', () => {
    expect(loadConfig({ DCLEDGER_INGEST_INTERVAL_MINUTES: '0.25' }).ingest.intervalMinutes).toBe(0.25);
    expect(loadConfig({ DCLEDGER_INGEST_INTERVAL_MINUTES: '2.5' }).ingest.intervalMinutes).toBe(2.5);
    expect(loadConfig({}).ingest.intervalMinutes).toBe(15);
  });

  it('names the setting that is wrong', () => {
    expect(() => loadConfig({ DCLEDGER_HOUSE_BASE_URL: 'ftp://x' })).toThrow(/DCLEDGER_HOUSE_BASE_URL/);
    expect(() => loadConfig({ DCLEDGER_FETCH_RETRIES: '-1' })).toThrow(/DCLEDGER_FETCH_RETRIES/);
    expect(() => loadConfig({ DCLEDGER_INGEST_INTERVAL_MINUTES: 'often' })).toThrow(ConfigError);
    expect(() => loadConfig({ DCLEDGER_INGEST_INTERVAL_MINUTES: '0.1' })).toThrow(/at least 0.25/);
    expect(() => loadConfig({ DCLEDGER_INGEST_SOURCES: 'house,sec' })).toThrow(/"sec"/);
    expect(() => loadConfig({ DCLEDGER_INGEST_SINCE: '2024-1-1' })).toThrow(/DCLEDGER_INGEST_SINCE/);
    expect(() => loadConfig({ DCLEDGER_OGE_INDEX_PATH: 'index.json' })).toThrow(/must start with/);
  });
});

describe('self-service settings', () => {
  it('uses the outbox and manual top-ups unless SMTP and Stripe are configured', () => {
    expect(readSelfService({})).toEqual({
      smtpUrl: undefined,
      mailFrom: 'dcledger@localhost',
      stripe: undefined,
      maxKeysPerAccount: 25,
    });
    const configured = readSelfService({
      DCLEDGER_SMTP_URL: 'smtps://user:pass@mail.example.org:465',
      DCLEDGER_MAIL_FROM: 'accounts@example.org',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(configured).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.org:465',
      mailFrom: 'accounts@example.org',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiBase: 'https://api.stripe.com' },
      maxKeysPerAccount: 25,
    });
    expect(readSelfService({ DCLEDGER_MAX_KEYS_PER_ACCOUNT: '3' }).maxKeysPerAccount).toBe(3);
    expect(() => readSelfService({ DCLEDGER_MAX_KEYS_PER_ACCOUNT: '0' })).toThrow(
      /DCLEDGER_MAX_KEYS_PER_ACCOUNT/,
    );
    expect(() => readSelfService({ DCLEDGER_SMTP_URL: 'http://mail' })).toThrow(/DCLEDGER_SMTP_URL/);
    // Mail that leaves the machine carries links: they must point at a configured origin.
    expect(() => loadConfig({ DCLEDGER_SMTP_URL: 'smtp://mail.example.org:587' })).toThrow(
      /DCLEDGER_PUBLIC_URL is required when DCLEDGER_SMTP_URL is set/,
    );
    expect(
      loadConfig({
        DCLEDGER_SMTP_URL: 'smtp://mail.example.org:587',
        DCLEDGER_PUBLIC_URL: 'https://x.example.org',
      }).selfService.smtpUrl,
    ).toBe('smtp://mail.example.org:587');
    expect(() => readSelfService({ STRIPE_SECRET_KEY: 'sk', DCLEDGER_STRIPE_API_BASE: 'ftp://x' })).toThrow(
      /DCLEDGER_STRIPE_API_BASE/,
    );
  });
});

describe('trusted proxies (DCLEDGER_TRUST_PROXY)', () => {
  it('is off by default, and reads addresses, CIDR ranges or a hop count', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ DCLEDGER_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(loadConfig({ DCLEDGER_TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('refuses anything else, naming the setting', () => {
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example.org', '0', '1.2.3.4/8/1'])
      expect(() => loadConfig({ DCLEDGER_TRUST_PROXY: bad }), bad).toThrow(/DCLEDGER_TRUST_PROXY/);
  });
});

describe('price provider settings', () => {
  it('has no provider and a 01:30 UTC job by default', () => {
    expect(loadConfig({}).priceProvider).toMatchObject({
      baseUrl: undefined,
      tiingoApiKey: undefined,
      tiingoBaseUrl: 'https://api.tiingo.com',
      refreshAt: { hour: 1, minute: 30 },
      refetchDays: 7,
    });
  });

  it('reads Stooq, the Tiingo key and base URL, and the time of the job (or off)', () => {
    const prices = loadConfig({
      DCLEDGER_PRICE_BASE_URL: 'https://stooq.com/',
      DCLEDGER_TIINGO_API_KEY: ' key-1 ',
      DCLEDGER_TIINGO_BASE_URL: 'http://127.0.0.1:8931/',
      DCLEDGER_PRICE_REFRESH_AT: '23:05',
    }).priceProvider;
    expect(prices).toMatchObject({
      baseUrl: 'https://stooq.com',
      tiingoApiKey: 'key-1',
      tiingoBaseUrl: 'http://127.0.0.1:8931',
      refreshAt: { hour: 23, minute: 5 },
    });
    expect(loadConfig({ DCLEDGER_PRICE_REFRESH_AT: 'OFF' }).priceProvider.refreshAt).toBeNull();
  });

  it('names a bad time of day or URL, without echoing the key', () => {
    expect(() => loadConfig({ DCLEDGER_PRICE_REFRESH_AT: '25:00' })).toThrow(
      /DCLEDGER_PRICE_REFRESH_AT .*01:30/,
    );
    expect(() => loadConfig({ DCLEDGER_PRICE_REFRESH_AT: 'nightly' })).toThrow(/DCLEDGER_PRICE_REFRESH_AT/);
    expect(() =>
      loadConfig({ DCLEDGER_TIINGO_BASE_URL: 'api.tiingo.com', DCLEDGER_TIINGO_API_KEY: 'sekrit' }),
    ).toThrow(/DCLEDGER_TIINGO_BASE_URL/);
    expect(() =>
      loadConfig({ DCLEDGER_TIINGO_BASE_URL: 'api.tiingo.com', DCLEDGER_TIINGO_API_KEY: 'sekrit' }),
    ).not.toThrow(/sekrit/);
  });
});
