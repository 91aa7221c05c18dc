/**
 * The Add Home and Update Home sheets: the form, saved through the outbox
 * (works offline). Server-side refusals come back later as parked outbox
 * entries, shown by the sync badge.
 */
import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { fileBaseUrl } from '../../data/fileToken.ts';
import { useOnline } from '../../data/hooks.ts';
import { savedWords } from '../../ui/savedWords.ts';
import { type HouseWithPeople, queueSaveHome } from '../../data/resources/homes.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast.tsx';
import { addressLine } from './HomeCard.tsx';
import { HomeForm } from './HomeForm.tsx';
import { HomePhoto } from './HomePhoto.tsx';
import { PHOTO_PREVIEW_CLASS } from './HomePhotoField.tsx';
import { homeImageUrl } from './homeImage.ts';
import { addDefaults, toHomeChanges, updateDefaults, type HomeFormValues } from './homeFormValues.ts';
import { useSignedInUser } from '../../data/auth.ts';

type HomeFormSheetProps =
  | { mode: 'add'; home?: undefined; onClose: () => void }
  | { mode: 'update'; home: HouseWithPeople; onClose: () => void };

export function HomeFormSheet({ mode, home, onClose }: HomeFormSheetProps) {
  const { db } = useSyncEngine();
  const user = useSignedInUser();
  const toast = useToast();
  const online = useOnline();
  // The home as it was when the form opened: the base of every change the
  // person makes, kept even when the live mirror moves on under the form
  // (another device's change arriving), so that change is never undone.
  const [started] = useState(home);
  const defaultValues = useMemo(() => (started ? updateDefaults(started) : addDefaults()), [started]);
  const title = mode === 'add' ? 'Add Home' : 'Update Home';

  async function save(values: HomeFormValues, image: File | null | undefined) {
    try {
      if (!user) throw new Error('Not signed in');
      await queueSaveHome(
        db,
        user,
        { ...toHomeChanges(values, mode, defaultValues), image },
        started?.house.id,
        started,
      );
      toast({
        title: 'Success',
        description:
          mode === 'add'
            ? savedWords(online, 'New home added', 'New home')
            : savedWords(online, 'Home updated', 'Home update'),
      });
      onClose();
    } catch (error) {
      // Only the device's own storage can fail here; the server's answer comes later.
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <Sheet open onClose={onClose} title={title} wide>
      <HomeForm
        mode={mode}
        defaultValues={defaultValues}
        submitLabel={title}
        onSubmit={save}
        currentPhoto={
          started?.house.image ? (
            <HomePhoto
              house={started.house}
              imageUrl={homeImageUrl(fileBaseUrl(), started.house)}
              address={addressLine(started.house)}
              className={PHOTO_PREVIEW_CLASS}
            />
          ) : undefined
        }
      />
    </Sheet>
  );
}
