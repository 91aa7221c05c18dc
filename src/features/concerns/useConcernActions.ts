/**
 * Creating, updating and deleting concerns (directors only, online only).
 * Writes go straight to the server; the returned record goes into the
 * mirror at once so the list changes without waiting for realtime.
 */
import { pb } from '../../api/client.ts';
import { errorMessage } from '../../api/errorMessage.ts';
import type { ConcernRecord } from '../../api/records.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { applyServerRecords, removeServerRecords } from '../../data/mirror.ts';
import type { ConcernValues } from '../../domain/schemas.ts';
import { useToast } from '../../ui/toast.tsx';
import type { Staff } from '../users/useManagement.ts';

export const CONCERNS_OFFLINE_REASON = 'You are offline — managing concerns needs a connection.';

export function useConcernActions(director: Staff) {
  const { db } = useSyncEngine();
  const toast = useToast();

  // Spec §8 names the failure; the server's reason follows it, so a
  // director can tell a rejected field from a lost connection.
  const fail = (message: string, error: unknown) => toast({ title: 'Fail', description: `${message}: ${errorMessage(error)}`, variant: 'destructive' });

  return {
    async create(values: ConcernValues): Promise<boolean> {
      try {
        const created = await pb.collection('concerns').create({ ...values, added_by: director.id, community: director.community });
        await applyServerRecords(db, 'concerns', [created]);
        toast({ title: 'Success', description: 'Concern successfully created' });
        return true;
      } catch (error) {
        fail('Error creating concern', error);
        return false;
      }
    },

    async update(concern: ConcernRecord, values: ConcernValues): Promise<boolean> {
      try {
        const updated = await pb.collection('concerns').update(concern.id, { ...values, added_by: director.id });
        await applyServerRecords(db, 'concerns', [updated]);
        toast({ title: 'Success', description: 'Concern successfully updated' });
        return true;
      } catch (error) {
        fail('Error updating concern', error);
        return false;
      }
    },

    async remove(concern: ConcernRecord): Promise<boolean> {
      try {
        await pb.collection('concerns').delete(concern.id);
        await removeServerRecords(db, 'concerns', [concern.id]);
        toast({ title: 'Success', description: 'Concern deleted' });
        return true;
      } catch (error) {
        fail('Concern not deleted', error);
        return false;
      }
    },
  };
}
