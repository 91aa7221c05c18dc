/**
 * What the data layer expects from a browser, for tests in Node:
 * IndexedDB (fake-indexeddb) and EventSource (PocketBase realtime).
 */
import 'fake-indexeddb/auto';
import { EventSource } from 'eventsource';

if (!('EventSource' in globalThis)) {
  (globalThis as unknown as { EventSource: typeof EventSource }).EventSource = EventSource;
}
