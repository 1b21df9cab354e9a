// The six event types clients can subscribe to.

export const EVENT_TYPES = [
  'disclosure.detected',
  'trade.created',
  'insider.filed',
  'lobbying.filed',
  'contract.awarded',
  'whale.filed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
