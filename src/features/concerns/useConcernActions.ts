/**
 * The concerns screen's side of creating, updating and deleting concerns
 * (directors only, online only): the words of docs/product.md#concerns around the data
 * layer's online actions (src/data/resources/concerns.ts), which write to the
 * server and put the answer into the mirror.
 */
import { errorMessage } from '../../api/errorMessage.ts';
import type { CallSettingsRecord, ConcernRecord } from '../../api/records.ts';
import type { Staff } from '../../data/auth.ts';
import { useOnlineActions } from '../../data/onlineActions.ts';
import type { CallSettingsValues, ConcernValues } from '../../domain/schemas.ts';
import { useToast } from '../../ui/toast.tsx';

export function useConcernActions(director: Staff) {
  const actions = useOnlineActions();
  const toast = useToast();

  // The toast names the failure; the server's reason follows it, so a
  // director can tell a rejected field from a lost connection.
  const fail = (message: string, error: unknown) =>
    toast({ title: 'Fail', description: `${message}: ${errorMessage(error)}`, variant: 'destructive' });

  return {
    async create(values: ConcernValues): Promise<boolean> {
      try {
        await actions.createConcern(director, values);
        toast({ title: 'Success', description: 'Concern successfully created' });
        return true;
      } catch (error) {
        fail('Error creating concern', error);
        return false;
      }
    },

    async update(concern: ConcernRecord, values: ConcernValues): Promise<boolean> {
      try {
        await actions.updateConcern(director, concern, values);
        toast({ title: 'Success', description: 'Concern successfully updated' });
        return true;
      } catch (error) {
        fail('Error updating concern', error);
        return false;
      }
    },

    async saveCallSettings(values: CallSettingsValues, saved: CallSettingsRecord | null): Promise<boolean> {
      try {
        await actions.saveCallSettings(director, values, saved);
        toast({ title: 'Success', description: 'Call settings saved' });
        return true;
      } catch (error) {
        fail('Error saving call settings', error);
        return false;
      }
    },

    async remove(concern: ConcernRecord): Promise<boolean> {
      try {
        await actions.deleteConcern(concern);
        toast({ title: 'Success', description: 'Concern deleted' });
        return true;
      } catch (error) {
        fail('Concern not deleted', error);
        return false;
      }
    },
  };
}
