/**
 * Add and Edit tour: the checkpoints in walking order (added from the
 * community's list, moved up and down, taken off), and the schedule in the
 * community's time zone. The limits are the shared schema's (tourSchema),
 * which the server checks too.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { Checkpoint, Tour } from '../../data/resources/tourBoards.ts';
import { tourSchema, type TourValues } from '../../domain/tourSchemas.ts';
import { CLOCK_INPUT } from '../../ui/clockInput.ts';
import { FieldError, SelectInput, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { TOUR_WORDS } from './tourWords.ts';

const NEW_TOUR: TourValues = {
  name: '',
  checkpoints: [],
  start: '20:00',
  end: '06:00',
  every_minutes: 120,
  round_minutes: 30,
  ordered: true,
  active: true,
};

export function TourForm({
  tour,
  checkpoints,
  onSubmit,
}: {
  tour?: Tour;
  checkpoints: readonly Checkpoint[];
  onSubmit: (values: TourValues) => Promise<void>;
}) {
  const { register, handleSubmit, formState, control, setValue } = useForm<TourValues>({
    resolver: zodResolver(tourSchema),
    defaultValues: tour
      ? {
          name: tour.name,
          checkpoints: [...tour.checkpoints],
          start: tour.start,
          end: tour.end,
          every_minutes: tour.every_minutes,
          round_minutes: tour.round_minutes,
          ordered: tour.ordered,
          active: tour.active,
        }
      : NEW_TOUR,
  });
  const errors = formState.errors;
  const chosen = useWatch({ control, name: 'checkpoints' });
  const byId = new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint]));
  const left = checkpoints.filter((checkpoint) => !chosen.includes(checkpoint.id));
  const choose = (ids: string[]) => setValue('checkpoints', ids, { shouldValidate: formState.isSubmitted });
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    choose(next);
  };

  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="space-y-4" noValidate>
      <TextInput label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Checkpoints, in walking order</legend>
        {chosen.length === 0 ? (
          <p className="text-sm text-gray-700">None yet.</p>
        ) : (
          <ol className="space-y-1">
            {chosen.map((id, index) => {
              const name = byId.get(id)?.name ?? 'A deleted checkpoint';
              return (
                <li key={id} className="flex items-center gap-1 rounded border border-gray-200 px-2 py-1">
                  <span className="mr-auto text-sm">
                    {index + 1}. {name}
                  </span>
                  <button
                    type="button"
                    aria-label={`Move ${name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    className="size-11 rounded text-lg hover:bg-gray-100 disabled:opacity-30"
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${name} down`}
                    disabled={index === chosen.length - 1}
                    onClick={() => move(index, 1)}
                    className="size-11 rounded text-lg hover:bg-gray-100 disabled:opacity-30"
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    aria-label={`Remove ${name}`}
                    onClick={() => choose(chosen.filter((other) => other !== id))}
                    className="size-11 rounded text-xl hover:bg-gray-100"
                  >
                    ×
                  </button>
                </li>
              );
            })}
          </ol>
        )}
        {left.length > 0 && (
          <SelectInput
            label="Add a checkpoint"
            value=""
            onChange={(event) => event.target.value && choose([...chosen, event.target.value])}
          >
            <option value="">Choose…</option>
            {left.map((checkpoint) => (
              <option key={checkpoint.id} value={checkpoint.id}>
                {checkpoint.name}
              </option>
            ))}
          </SelectInput>
        )}
        {checkpoints.length === 0 && <p className="text-sm text-gray-700">{TOUR_WORDS.noCheckpoints}</p>}
        <FieldError id="tour-checkpoints-error" message={errors.checkpoints?.message} />
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <TextInput label="First round" {...CLOCK_INPUT} error={errors.start?.message} {...register('start')} />
        <TextInput label="Last round" {...CLOCK_INPUT} error={errors.end?.message} {...register('end')} />
        <TextInput
          label="Minutes between rounds"
          type="number"
          inputMode="numeric"
          error={errors.every_minutes?.message}
          {...register('every_minutes', { valueAsNumber: true })}
        />
        <TextInput
          label="Minutes a round may take"
          type="number"
          inputMode="numeric"
          error={errors.round_minutes?.message}
          {...register('round_minutes', { valueAsNumber: true })}
        />
      </div>
      <p className="text-sm text-gray-700">
        Times are 24-hour (HH:MM) in the community&apos;s time zone; a last round at or before the first is the next
        morning&apos;s.
      </p>
      <Controller
        control={control}
        name="ordered"
        render={({ field }) => (
          <Toggle label="Checkpoints must be scanned in order" checked={field.value} onChange={field.onChange} />
        )}
      />
      <Controller
        control={control}
        name="active"
        render={({ field }) => <Toggle label="Rounds are due" checked={field.value} onChange={field.onChange} />}
      />
      <SubmitButton busy={formState.isSubmitting}>{tour ? 'Save' : TOUR_WORDS.addTour}</SubmitButton>
    </form>
  );
}
