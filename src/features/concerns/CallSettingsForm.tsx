/**
 * The community's call settings, edited by directors: how often
 * a busy or unanswered number is tried again and how far apart, whether the
 * message goes out as a text when nobody was reached, and the quiet hours in
 * the community's time zone. Until a director saves, the defaults apply
 * (the server reads the same ones).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { CallSettingsRecord } from '../../api/records.ts';
import { DEFAULT_CALL_SETTINGS, TIME_ZONES } from '../../domain/quietHours.ts';
import { CALL_SETTINGS_LIMITS, callSettingsSchema, type CallSettingsValues } from '../../domain/schemas.ts';
import { CLOCK_INPUT } from '../../ui/clockInput.ts';
import { SelectInput, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';

export const CALL_SETTINGS_TITLE = 'Call settings';
export const QUIET_HOURS_HINT =
  'A call placed in quiet hours asks first; retries wait until quiet hours end. The same start and end: no quiet hours.';

export const QUIET_HOURS_FORMAT = '24-hour times, HH:MM (21:00).';

/**
 * A time typed as text: the browser's time input shows 12-hour 'AM/PM' in a
 * US locale, and the app writes times 24-hour everywhere (src/ui/dateTime.ts).
 */
const RETRY_CHOICES = Array.from(
  { length: CALL_SETTINGS_LIMITS.retries.max - CALL_SETTINGS_LIMITS.retries.min + 1 },
  (_, i) => CALL_SETTINGS_LIMITS.retries.min + i,
);

export function callSettingsDefaults(saved: CallSettingsRecord | null): CallSettingsValues {
  return saved
    ? {
        retries: saved.retries,
        retry_minutes: saved.retry_minutes,
        text_fallback: saved.text_fallback,
        quiet_start: saved.quiet_start,
        quiet_end: saved.quiet_end,
        time_zone: saved.time_zone,
      }
    : {
        retries: DEFAULT_CALL_SETTINGS.retries,
        retry_minutes: DEFAULT_CALL_SETTINGS.retryMinutes,
        text_fallback: DEFAULT_CALL_SETTINGS.textFallback,
        quiet_start: DEFAULT_CALL_SETTINGS.quietStart,
        quiet_end: DEFAULT_CALL_SETTINGS.quietEnd,
        time_zone: DEFAULT_CALL_SETTINGS.timeZone,
      };
}

export function CallSettingsForm({
  saved,
  onSubmit,
  blockedReason,
}: {
  /** The community's record; null while it has the defaults. */
  saved: CallSettingsRecord | null;
  onSubmit: (values: CallSettingsValues) => Promise<void>;
  /** Set while the form cannot be sent (offline). */
  blockedReason: string | null;
}) {
  const { register, handleSubmit, formState } = useForm<CallSettingsValues>({
    resolver: zodResolver(callSettingsSchema),
    defaultValues: callSettingsDefaults(saved),
  });
  const errors = formState.errors;
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} className="space-y-4" noValidate>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">When nobody answers</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectInput
            label="Retries of a busy or unanswered number"
            error={errors.retries?.message}
            {...register('retries', { valueAsNumber: true })}
          >
            {RETRY_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </SelectInput>
          <TextInput
            label="Minutes between tries"
            type="number"
            inputMode="numeric"
            min={CALL_SETTINGS_LIMITS.retryMinutes.min}
            max={CALL_SETTINGS_LIMITS.retryMinutes.max}
            error={errors.retry_minutes?.message}
            {...register('retry_minutes', { valueAsNumber: true })}
          />
        </div>
        <p className="text-xs text-gray-700">
          Then the home&apos;s other phones are called: primary, cell, home, business.
        </p>
        <label className="flex items-start gap-2 text-sm font-medium">
          <input type="checkbox" className="mt-0.5 h-4 w-4 accent-black" {...register('text_fallback')} />
          Send the message as a text to a cell phone when no call reached a person or a voicemail
        </label>
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">Quiet hours</legend>
        <div className="grid grid-cols-2 gap-3">
          <TextInput label="From" {...CLOCK_INPUT} error={errors.quiet_start?.message} {...register('quiet_start')} />
          <TextInput label="To" {...CLOCK_INPUT} error={errors.quiet_end?.message} {...register('quiet_end')} />
        </div>
        <p className="text-xs text-gray-700">{QUIET_HOURS_FORMAT}</p>
        <SelectInput label="Time zone" error={errors.time_zone?.message} {...register('time_zone')}>
          {TIME_ZONES.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace('_', ' ')}
            </option>
          ))}
        </SelectInput>
        <p className="text-xs text-gray-700">{QUIET_HOURS_HINT}</p>
      </fieldset>
      {blockedReason && <p className="text-sm text-amber-900">{blockedReason}</p>}
      <SubmitButton busy={formState.isSubmitting} disabled={blockedReason !== null}>
        Save
      </SubmitButton>
    </form>
  );
}
