/**
 * The drill's steady writer: an officer's client writing a report every
 * few milliseconds through the proxy, each under an id it chose (as the
 * app's outbox does), noting when the server acknowledged it. After the
 * server is lost and restored, the acknowledged ids the restored server
 * lacks are the writes lost, and their acknowledgement times against the
 * moment of the loss are the window.
 */
import PocketBase from 'pocketbase';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import type { DemoAccount } from '../seed/demo-account.ts';

export interface Acknowledged {
  id: string;
  /** When the answer arrived (ms, Date.now()). */
  at: number;
}

export interface SteadyWriter {
  acknowledged: Acknowledged[];
  /** Writes the proxy or the server refused or never answered (not acknowledged: the app would keep them queued). */
  failed: number;
  stop: () => Promise<void>;
}

const pbDate = (date: Date) => date.toISOString().replace('T', ' ');

export async function startSteadyWriter(
  baseUrl: string,
  account: DemoAccount,
  house: { id: string; community: string },
  everyMs: number,
): Promise<SteadyWriter> {
  const pb = new PocketBase(baseUrl);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(account.email, account.password);
  const officer = pb.authStore.record!.id;
  const writer: SteadyWriter = { acknowledged: [], failed: 0, stop: async () => undefined };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const id = newRecordId();
      try {
        await pb.collection('reports').create(
          {
            id,
            narative: `Drill: steady write ${writer.acknowledged.length + writer.failed + 1}.`,
            ai_generated_narative: '',
            type: 'open_garage_door',
            weather: 'clear',
            incident_time: pbDate(new Date()),
            phone_number: '',
            injury: false,
            ems_pbso: false,
            community: house.community,
            house: house.id,
            resident: '',
            created_by: officer,
            everything_ok: '',
          },
          { requestKey: null, signal: AbortSignal.timeout(5_000) },
        );
        writer.acknowledged.push({ id, at: Date.now() });
      } catch {
        writer.failed += 1;
      }
      await new Promise((wait) => setTimeout(wait, Math.max(0, everyMs - (Date.now() - started))));
    }
  })();
  writer.stop = async () => {
    running = false;
    await loop;
  };
  return writer;
}
