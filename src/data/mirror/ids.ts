/**
 * Client-generated PocketBase ids (15 characters of [a-z0-9]): an outbox
 * entry carries the id of the record it creates, so a replayed create can
 * be recognised on the server instead of creating a twin.
 */
import { RECORD_ID_ALPHABET, RECORD_ID_LENGTH } from '../../domain/recordId.ts';

export function newRecordId(): string {
  let id = '';
  while (id.length < RECORD_ID_LENGTH) {
    const bytes = crypto.getRandomValues(new Uint8Array(RECORD_ID_LENGTH * 2));
    for (const byte of bytes) {
      // 252 = 7 × 36: dropping larger bytes keeps every character equally likely.
      if (byte < 252 && id.length < RECORD_ID_LENGTH) id += RECORD_ID_ALPHABET[byte % 36];
    }
  }
  return id;
}
