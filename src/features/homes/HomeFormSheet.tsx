/**
 * The Add Home and Update Home sheets: the form, saved through the outbox
 * (works offline). Server-side refusals come back later as parked outbox
 * entries, shown by the sync badge.
 */
import { useMemo } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import type { HouseWithPeople } from '../../data/queries.ts';
import { queueSaveHome } from '../../data/writes.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast.tsx';
import { HomeForm } from './HomeForm.tsx';
import { addDefaults, toHomeForm, updateDefaults, type HomeFormValues } from './homeForm.ts';
import { useSignedInUser } from '../../data/auth.ts';

type HomeFormSheetProps =
  | { mode: 'add'; home?: undefined; onClose: () => void }
  | { mode: 'update'; home: HouseWithPeople; onClose: () => void };

export function HomeFormSheet({ mode, home, onClose }: HomeFormSheetProps) {
  const { db } = useSyncEngine();
  const user = useSignedInUser();
  const toast = useToast();
  const defaultValues = useMemo(() => (home ? updateDefaults(home) : addDefaults()), [home]);
  const title = mode === 'add' ? 'Add Home' : 'Update Home';

  async function save(values: HomeFormValues, image: File | undefined) {
    try {
      if (!user) throw new Error('Not signed in');
      await queueSaveHome(db, user, { ...toHomeForm(values, mode, defaultValues), image }, home?.house.id);
      toast({ title: 'Success', description: mode === 'add' ? 'New home added' : 'Home updated' });
      onClose();
    } catch (error) {
      // Only the device's own storage can fail here; the server's answer comes later.
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <Sheet open onClose={onClose} title={title} wide>
      <HomeForm mode={mode} defaultValues={defaultValues} submitLabel={title} onSubmit={save} />
    </Sheet>
  );
}
