// The headers a webhook delivery carries, each described once: the integration guide
// (GET /alerts/webhooks/guide) and the OpenAPI document's webhooks section both list these.
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  TEST_HEADER,
  TIMESTAMP_HEADER,
  TIMESTAMPED_SIGNATURE_HEADER,
} from './verify.js';

export interface DeliveryHeader {
  name: string;
  description: string;
  /** The only values the header takes, when it is absent from most deliveries. */
  onlyValues?: readonly string[];
}

export const DELIVERY_HEADERS: readonly DeliveryHeader[] = [
  { name: EVENT_HEADER, description: 'the event type, as in the body' },
  {
    name: DELIVERY_HEADER,
    description: 'unique delivery id (UUID); the same on every retry of that delivery (deduplicate on it)',
  },
  { name: TIMESTAMP_HEADER, description: 'Unix seconds when this attempt was signed' },
  { name: SIGNATURE_HEADER, description: 'hex HMAC-SHA256 of the raw body, keyed with webhook_secret' },
  {
    name: TIMESTAMPED_SIGNATURE_HEADER,
    description: `hex HMAC-SHA256 of "<${DELIVERY_HEADER}>.<${TIMESTAMP_HEADER}>.<raw body>", keyed with webhook_secret`,
  },
  {
    name: TEST_HEADER,
    description: '"true" on deliveries sent by the test endpoint (absent otherwise)',
    onlyValues: ['true'],
  },
  { name: STANDARD_ID_HEADER, description: `Standard Webhooks: the delivery id (as ${DELIVERY_HEADER})` },
  {
    name: STANDARD_TIMESTAMP_HEADER,
    description: `Standard Webhooks: Unix seconds (as ${TIMESTAMP_HEADER})`,
  },
  {
    name: STANDARD_SIGNATURE_HEADER,
    description:
      'Standard Webhooks: "v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">", keyed with the base64-decoded payload of a whsec_ secret (a secret in another form: its UTF-8 bytes)',
  },
];
