/**
 * Create report (docs/product.md#incident-reports): the form of reportSchema, sent
 * through the outbox so it works offline too; on success the form resets,
 * 'Report created successfully' shows and the list opens with the new
 * report (marked "Not yet sent" until the server confirms it). Cancel goes
 * back to the list, asking first when a narrative or photo would be lost.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { endOfDay } from 'date-fns';
import { useLayoutEffect, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInUser } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useReportPosition } from '../../data/devicePosition.ts';
import { useOnline } from '../../data/hooks.ts';
import { useOnlineActions } from '../../data/onlineActions.ts';
import { type AiSource, queueReport } from '../../data/resources/reports.ts';
import { firstResident, housePhoneNumber } from '../../data/resources/homes.ts';
import { REPORT_TYPES, WEATHER_VALUES } from '../../domain/reportTypes.ts';
import { reportSchema, type ReportValues } from '../../domain/schemas.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DateField } from '../../ui/DateField.tsx';
import { FieldError, SelectInput, TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { useToast } from '../../ui/toast.tsx';
import { forgetScrollPosition } from '../../ui/VirtualList.tsx';
import { weatherLabel } from '../../ui/format.ts';
import { HouseCombobox } from './HouseCombobox.tsx';
import { NarrativeField } from './NarrativeField.tsx';
import { PhotoPicker } from './PhotoPicker.tsx';
import { reportFormDefaults, toNewReport, type ReportFormInput } from './reportForm.ts';
import { Toggle } from '../../ui/Toggle.tsx';
import { useAttachments } from './useAttachments.ts';
import { savedWords } from '../../ui/savedWords.ts';

// The fields start empty (no type, no date) where the schema's output may not be:
// the resolver turns valid input into ReportValues.
const resolver = zodResolver(reportSchema) as unknown as Resolver<ReportFormInput, unknown, ReportValues>;

const pad = (n: number) => String(n).padStart(2, '0');

// Incidents have happened already: days after today cannot be picked.
const isFutureDay = (day: Date) => day > endOfDay(new Date());

export function CreateReportPage() {
  const { db } = useSyncEngine();
  const user = useSignedInUser();
  const online = useOnline();
  const { requestAiAssist } = useOnlineActions();
  const navigate = useNavigate();
  const toast = useToast();
  // Where the report was made: looked for while the officer writes it.
  const position = useReportPosition();
  // A report started from another screen (a checkpoint's scan) opens with where it happened.
  const startedFrom: unknown = useLocation().state;
  // The form opens at its heading, not where the list it came from was scrolled.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  const { register, control, handleSubmit, reset, setValue, getValues, formState } = useForm<
    ReportFormInput,
    unknown,
    ReportValues
  >({
    resolver,
    defaultValues: { ...reportFormDefaults(), narative: startingNarrative(startedFrom) },
  });
  const errors = formState.errors;
  const originalText = useWatch({ control, name: 'narative' });
  const aiText = useWatch({ control, name: 'ai_generated_narative' });
  const [aiSource, setAiSource] = useState<AiSource | null>(null);
  const [aiBusy, setAiBusy] = useState(false);
  const [tab, setTab] = useState(0);
  const photos = useAttachments();
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  const fillNow = () => {
    const now = new Date();
    const validate = { shouldValidate: formState.isSubmitted, shouldDirty: true };
    setValue('incident_date', new Date(now.getFullYear(), now.getMonth(), now.getDate()), validate);
    setValue('hour', pad(now.getHours()), validate);
    setValue('minute', pad(now.getMinutes()), validate);
  };

  const aiAssist = async () => {
    setAiBusy(true);
    try {
      const answer = await requestAiAssist(getValues('narative'));
      setValue('ai_generated_narative', answer.text, { shouldDirty: true });
      setAiSource(answer.source);
      // Once an AI narrative exists its tab is the one shown.
      setTab(1);
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setAiBusy(false);
    }
  };

  const submit = handleSubmit(async (values) => {
    if (!user) return;
    // Photos still being made small are waited for; one turned away meanwhile stops the submit (the picker says why).
    const files = await photos.ready();
    if (!files) return;
    try {
      const resident = values.house ? await firstResident(db, values.house) : undefined;
      const phoneNumber = values.house ? await housePhoneNumber(db, values.house) : '';
      const report = toNewReport(values, { residentId: resident?.id ?? '', phoneNumber }, files, await position());
      await queueReport(db, user, report);
      reset(reportFormDefaults());
      photos.clear();
      setAiSource(null);
      setTab(0);
      toast({ title: 'Success', description: savedWords(online, 'Report created successfully', 'Report') });
      // The list opens newest first: start at its top, where the new report is.
      forgetScrollPosition('reports');
      navigate('/reports');
    } catch (error) {
      // Only the device's own storage can fail here (full, most likely); the server's answer comes later,
      // through the outbox. The form stays as it is, to try again.
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  });

  const timeError = errors.hour?.message ?? errors.minute?.message;

  // A narrative (or a photo) is the officer's work: leaving asks first. A
  // chosen type or time alone is quick to redo and is not worth a question.
  const wouldLoseWork = Boolean(originalText?.trim() || aiText?.trim()) || photos.items.length > 0;
  const backToList = () => navigate('/reports');
  const cancel = () => (wouldLoseWork ? setConfirmDiscard(true) : backToList());

  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Create report</h1>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="mt-4 space-y-5 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectInput label="Type" error={errors.type?.message} {...register('type')}>
            <option value="">Select type</option>
            {REPORT_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </SelectInput>
          <SelectInput label="Weather" error={errors.weather?.message} {...register('weather')}>
            {WEATHER_VALUES.map((w) => (
              <option key={w} value={w}>
                {weatherLabel(w)}
              </option>
            ))}
          </SelectInput>
        </div>

        <Controller
          control={control}
          name="incident_date"
          render={({ field, fieldState }) => (
            <DateField
              label="Incident date"
              value={field.value}
              onChange={(date) => field.onChange(date ?? undefined)}
              error={fieldState.error?.message}
              isDayDisabled={isFutureDay}
              yearsBack={10}
            />
          )}
        />

        <fieldset>
          <legend className="text-sm font-medium">Incident time</legend>
          <div className="mt-1 flex items-end gap-3">
            <TextInput
              label="Hour"
              type="number"
              inputMode="numeric"
              min={0}
              max={23}
              className="w-24"
              aria-invalid={errors.hour ? true : undefined}
              {...register('hour')}
            />
            <TextInput
              label="Minute"
              type="number"
              inputMode="numeric"
              min={0}
              max={59}
              className="w-24"
              aria-invalid={errors.minute ? true : undefined}
              {...register('minute')}
            />
            <button
              type="button"
              onClick={fillNow}
              className="rounded border border-gray-300 px-4 py-2 font-medium hover:bg-gray-100"
            >
              Now
            </button>
          </div>
          <p className="mt-1 text-xs text-gray-600">Incident time MUST be in 24 hour format</p>
          <FieldError id="incident-time-error" message={timeError} />
        </fieldset>

        <Controller
          control={control}
          name="house"
          render={({ field }) => <HouseCombobox value={field.value} onChange={field.onChange} />}
        />

        <div className="flex flex-wrap gap-6">
          <Controller
            control={control}
            name="injury"
            render={({ field }) => <Toggle label="Injury" checked={field.value} onChange={field.onChange} />}
          />
          <Controller
            control={control}
            name="ems_pbso"
            render={({ field }) => <Toggle label="EMS/PBSO" checked={field.value} onChange={field.onChange} />}
          />
        </div>

        <NarrativeField
          original={register('narative')}
          ai={register('ai_generated_narative')}
          originalText={originalText}
          aiSource={aiSource}
          tab={tab}
          onTabChange={setTab}
          online={online}
          busy={aiBusy}
          onAiAssist={() => void aiAssist()}
          error={errors.narative?.message}
          aiError={errors.ai_generated_narative?.message}
        />

        <PhotoPicker photos={photos} />

        <div className="flex gap-3">
          <button
            type="button"
            onClick={cancel}
            disabled={formState.isSubmitting}
            className="rounded border border-gray-300 px-5 py-2.5 font-medium hover:bg-gray-100 disabled:opacity-60"
          >
            Cancel
          </button>
          <SubmitButton busy={formState.isSubmitting} busyLabel="Creating report" variant="fill">
            {formState.isSubmitting && photos.preparing > 0 ? 'Preparing photos…' : 'Create report'}
          </SubmitButton>
        </div>
      </form>
      <ConfirmDialog
        open={confirmDiscard}
        title="Discard this report?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        destructive
        onConfirm={backToList}
        onCancel={() => setConfirmDiscard(false)}
      >
        What you have entered will be lost.
      </ConfirmDialog>
    </section>
  );
}

/** The narrative a report started elsewhere opens with ('At checkpoint Pool gate: '); '' for none. */
function startingNarrative(state: unknown): string {
  const narrative = (state as { narrative?: unknown } | null)?.narrative;
  return typeof narrative === 'string' ? narrative.slice(0, 200) : '';
}
