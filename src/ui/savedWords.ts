/**
 * What a screen says once a write is queued. Online it says the
 * usual words ('Report created successfully', 'Home updated'):
 * the outbox sends it within a moment. Offline the same words would read as
 * if the server had it, so it says where the work is: on this device, sent
 * once the connection is back.
 */
export function savedOffline(what: string): string {
  return `${what} saved on this device; it will be sent when you are back online.`;
}

export function savedWords(online: boolean, onlineWords: string, what: string): string {
  return online ? onlineWords : savedOffline(what);
}
