/**
 * The House check dialog (docs/product.md#house-checks): the home's notes, 'Is everything
 * ok?', an optional remark. Saved through the outbox (works offline): the
 * report and the last-checked date land in the mirror at once, so the
 * card's due notice goes away immediately. A toast confirms it, and says
 * when it waits on this device for a connection.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { errorMessage } from '../../api/errorMessage.ts';
import type { HouseRecord } from '../../api/records.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useReportPosition } from '../../data/devicePosition.ts';
import { queueHouseCheck } from '../../data/resources/houseChecks.ts';
import { houseCheckSchema, type HouseCheckValues } from '../../domain/schemas.ts';
import { FieldError, TextArea } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { useToast } from '../../ui/toast.tsx';
import { addressLine } from './HomeCard.tsx';
import { useSignedInUser } from '../../data/auth.ts';
import { useOnline } from '../../data/hooks.ts';
import { savedOffline } from '../../ui/savedWords.ts';

export const HOUSE_CHECK_SAVED = 'House check saved';
// Offline the dialog closing alone left officers unsure the check was kept.
export const HOUSE_CHECK_SAVED_OFFLINE = savedOffline('House check');

function Answer({
  value,
  label,
  register,
}: {
  value: 'yes' | 'no';
  label: string;
  register: UseFormRegister<HouseCheckValues>;
}) {
  return (
    <label className="flex flex-1 cursor-pointer items-center justify-center gap-2 rounded border border-gray-300 px-4 py-2 font-medium has-[:checked]:border-black has-[:checked]:bg-black has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-black has-[:focus-visible]:ring-offset-2">
      <input type="radio" value={value} className="sr-only" {...register('everything_ok')} />
      {label}
    </label>
  );
}

export function HouseCheckDialog({ house, onClose }: { house: HouseRecord; onClose: () => void }) {
  const { db } = useSyncEngine();
  const user = useSignedInUser();
  const online = useOnline();
  const toast = useToast();
  // Where the check was made: looked for while the officer answers.
  const position = useReportPosition();
  const { register, control, handleSubmit, formState } = useForm<HouseCheckValues>({
    resolver: zodResolver(houseCheckSchema),
    defaultValues: { remark: '' },
  });
  // Undefined until Yes or No is chosen (the default values leave it out).
  const answer = useWatch({ control, name: 'everything_ok' }) as HouseCheckValues['everything_ok'] | undefined;

  const submit = handleSubmit(async (values) => {
    try {
      if (!user) throw new Error('Not signed in');
      await queueHouseCheck(db, user, house, {
        everythingOk: values.everything_ok === 'yes',
        remark: values.remark,
        position: await position(),
      });
      toast({ title: 'Success', description: online ? HOUSE_CHECK_SAVED : HOUSE_CHECK_SAVED_OFFLINE });
      onClose();
    } catch (error) {
      // With the outbox only local storage can fail here (full, most likely): say so, keep the dialog as it is.
      console.error('House check not saved', error);
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  });

  return (
    <Sheet open onClose={onClose} title="House Check">
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <dl className="space-y-2 text-sm">
          <div>
            <dt className="font-medium text-gray-600">Address</dt>
            <dd>{addressLine(house)}</dd>
          </div>
          {house.note && (
            <div>
              <dt className="font-medium text-gray-600">Note</dt>
              <dd className="break-words whitespace-pre-line">{house.note}</dd>
            </div>
          )}
          {house.house_check_note && (
            <div>
              <dt className="font-medium text-gray-600">House check note</dt>
              <dd className="break-words whitespace-pre-line">{house.house_check_note}</dd>
            </div>
          )}
        </dl>
        <fieldset aria-describedby={formState.errors.everything_ok ? 'everything-ok-error' : undefined}>
          <legend className="mb-2 font-medium">Is everything ok?</legend>
          <div className="flex gap-3">
            <Answer value="yes" label="Yes" register={register} />
            <Answer value="no" label="No" register={register} />
          </div>
          <FieldError id="everything-ok-error" message={formState.errors.everything_ok?.message} />
        </fieldset>
        <TextArea label="Remark" rows={4} error={formState.errors.remark?.message} {...register('remark')} />
        <SubmitButton busy={formState.isSubmitting} disabled={!answer} variant="full-grey">
          Submit
        </SubmitButton>
      </form>
    </Sheet>
  );
}
