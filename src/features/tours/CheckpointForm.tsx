/**
 * Add and Edit checkpoint: its name, where it is (taken on the phone at
 * the spot, with the fix's accuracy), the radius a scan counts within, the
 * instructions shown on a scan and an optional yes/no question. The limits
 * are the shared schema's (checkpointSchema), which the server checks too.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Checkpoint } from '../../data/resources/tourBoards.ts';
import { checkpointSchema, TOUR_LIMITS, type CheckpointValues } from '../../domain/tourSchemas.ts';
import { positionMapUrl, toReportPosition } from '../../domain/whereAndWhen.ts';
import { FieldError, TextArea, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { TOUR_WORDS } from './tourWords.ts';

const NO_FIX = 'No position: allow the location for this site, or try again outside.';

/** One fresh fix of the phone's position, for the spot it stands on. */
function takePosition(): Promise<CheckpointValues['position']> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) {
      reject(new Error(NO_FIX));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (found) => resolve(toReportPosition(found.coords)),
      () => reject(new Error(NO_FIX)),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
}

export function CheckpointForm({
  checkpoint,
  onSubmit,
}: {
  checkpoint?: Checkpoint;
  onSubmit: (values: CheckpointValues) => Promise<void>;
}) {
  const { register, handleSubmit, formState, control } = useForm<CheckpointValues>({
    resolver: zodResolver(checkpointSchema),
    defaultValues: {
      name: checkpoint?.name ?? '',
      position: checkpoint?.position ?? null,
      radius: checkpoint?.radius ?? 30,
      instructions: checkpoint?.instructions ?? '',
      question: checkpoint?.question ?? '',
    },
  });
  const errors = formState.errors;
  const [locating, setLocating] = useState(false);
  const [fixProblem, setFixProblem] = useState<string | undefined>();

  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="space-y-4" noValidate>
      <TextInput label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <Controller
        control={control}
        name="position"
        render={({ field }) => (
          <div>
            <p className="text-sm font-medium">Where it is</p>
            <p className="mt-1 text-sm text-gray-700">
              {field.value ? (
                <>
                  {field.value.latitude.toFixed(5)}, {field.value.longitude.toFixed(5)} (±
                  {Math.round(field.value.accuracy)} m) ·{' '}
                  <a href={positionMapUrl(field.value)} target="_blank" rel="noreferrer" className="underline">
                    Map
                  </a>
                </>
              ) : (
                'Not set: stand at the sticker and use this phone’s position.'
              )}
            </p>
            <div className="mt-2 flex gap-2">
              <button
                type="button"
                disabled={locating}
                onClick={() => {
                  setLocating(true);
                  setFixProblem(undefined);
                  takePosition()
                    .then((position) => field.onChange(position))
                    .catch((error: Error) => setFixProblem(error.message))
                    .finally(() => setLocating(false));
                }}
                className="min-h-11 rounded border border-gray-300 bg-white px-4 font-medium hover:bg-gray-100 disabled:opacity-50"
              >
                {locating ? 'Finding your position…' : 'Use my position here'}
              </button>
              {field.value && (
                <button
                  type="button"
                  onClick={() => field.onChange(null)}
                  className="min-h-11 rounded px-4 font-medium hover:bg-gray-100"
                >
                  Clear
                </button>
              )}
            </div>
            <FieldError id="checkpoint-position-error" message={fixProblem ?? errors.position?.message} />
          </div>
        )}
      />
      <TextInput
        label="Radius (metres)"
        type="number"
        inputMode="numeric"
        error={errors.radius?.message}
        {...register('radius', { valueAsNumber: true })}
      />
      <TextArea
        label="Instructions shown on a scan"
        rows={2}
        placeholder="Check the pool gate is locked"
        maxLength={TOUR_LIMITS.instructions}
        error={errors.instructions?.message}
        {...register('instructions')}
      />
      <TextInput
        label="Yes/no question (optional)"
        placeholder="Is the gate locked?"
        maxLength={TOUR_LIMITS.question}
        error={errors.question?.message}
        {...register('question')}
      />
      <SubmitButton busy={formState.isSubmitting}>{checkpoint ? 'Save' : TOUR_WORDS.addCheckpoint}</SubmitButton>
    </form>
  );
}
