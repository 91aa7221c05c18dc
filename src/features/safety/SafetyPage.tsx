/**
 * Safety screen (docs/product.md#on-duty-and-alerts): your shift; the alerts
 * that are on and the latest ones with every step; for directors and
 * managers, who is on duty now, since when and where they were last seen;
 * for directors, the community's safety settings. Reads the mirror only:
 * works offline, and follows every phone as it syncs.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import {
  queueSafetySettings,
  useLastShift,
  useOnDuty,
  useRecentAlerts,
  useSafetySettings,
  type AlertView,
} from '../../data/resources/safety.ts';
import { safetySettingsSchema, SAFETY_LIMITS, type SafetySettingsValues } from '../../domain/safetySchemas.ts';
import { positionMapUrl } from '../../domain/whereAndWhen.ts';
import { TextInput } from '../../ui/Field.tsx';
import { formatDateTime, formatTime, personName } from '../../ui/format.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { useToast } from '../../ui/toast.tsx';
import { NotificationSettings } from './NotificationSettings.tsx';
import { ShiftMenuButton } from './SafetyLayer.tsx';
import { ALERT_KIND_WORDS, alertStateWords, STEP_WORDS } from '../../ui/alertWords.ts';
import { SAFETY_WORDS, SHIFT_END_WORDS } from './safetyWords.ts';

const at = (value: string) => new Date(value.replace(' ', 'T'));

export function SafetyPage() {
  const me = useSignedInStaff();
  return me ? <SafetyScreen me={me} /> : null;
}

function SafetyScreen({ me }: { me: Staff }) {
  const manages = me.type === 'director' || me.type === 'manager';
  // A push notification about an alert opens /alerts/<id>: this screen, that alert marked.
  const { alertId = null } = useParams();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{SAFETY_WORDS.title}</h1>
      <YourShift me={me} />
      <Alerts highlight={alertId} />
      {manages && <OnDutyList />}
      {me.type === 'director' && <SettingsSection me={me} />}
      <NotificationSettings />
    </div>
  );
}

function YourShift({ me }: { me: Staff }) {
  const last = useLastShift(me.id);
  const shift = last === undefined ? undefined : last && last.ended_at === '' ? last : null;
  const closedBy = last && last.ended_at !== '' ? SHIFT_END_WORDS[last.ended_by] : '';
  return (
    <section aria-labelledby="your-shift" className="space-y-2">
      <h2 id="your-shift" className="text-lg font-semibold">
        {SAFETY_WORDS.yourShift}
      </h2>
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-gray-200 bg-white p-3">
        <p className="mr-auto">
          {shift === undefined
            ? '…'
            : shift
              ? `On duty since ${formatDateTime(at(shift.started_at))}`
              : SAFETY_WORDS.offDuty}
        </p>
        <div className="rounded bg-black">
          <ShiftMenuButton />
        </div>
      </div>
      {last && closedBy && (
        <p role="status" className="rounded bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Your last shift {closedBy} at {formatDateTime(at(last.ended_at))}.
        </p>
      )}
    </section>
  );
}

function Alerts({ highlight }: { highlight: string | null }) {
  const alerts = useRecentAlerts();
  return (
    <section aria-labelledby="alerts-heading" className="space-y-2">
      <h2 id="alerts-heading" className="text-lg font-semibold">
        {SAFETY_WORDS.openAlerts}
      </h2>
      {!alerts ? (
        <Spinner label="Loading alerts" />
      ) : alerts.length === 0 ? (
        <p className="text-gray-700">{SAFETY_WORDS.noAlerts}</p>
      ) : (
        <ul className="space-y-2">
          {alerts.map((view) => (
            <AlertItem key={view.alert.id} view={view} highlighted={view.alert.id === highlight} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AlertItem({ view, highlighted }: { view: AlertView; highlighted: boolean }) {
  const { alert, officer, steps } = view;
  const on = alert.ended_at === '';
  return (
    <li
      data-alert-item={alert.id}
      className={`rounded-lg border bg-white p-3 ${on ? 'border-red-600' : 'border-gray-200'} ${highlighted ? 'ring-2 ring-black' : ''}`}
    >
      <p className="font-medium">
        <span
          className={`mr-2 rounded px-2 py-0.5 text-xs font-semibold ${on ? 'bg-red-100 text-red-900' : 'bg-gray-100 text-gray-800'}`}
        >
          {alertStateWords(alert)}
        </span>
        {ALERT_KIND_WORDS[alert.kind]}: {personName(officer)} · {formatDateTime(at(alert.raised_at))}
        {alert.position && (
          <a href={positionMapUrl(alert.position)} target="_blank" rel="noreferrer" className="ml-2 underline">
            Map
          </a>
        )}
      </p>
      {steps.length > 0 && (
        <ol className="mt-1 space-y-0.5 text-sm text-gray-700">
          {steps.map(({ event, by }) => (
            <li key={event.id}>
              {formatTime(at(event.at))} · {personName(by)} {STEP_WORDS[event.kind]}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

function OnDutyList() {
  const onDuty = useOnDuty();
  return (
    <section aria-labelledby="on-duty-heading" className="space-y-2">
      <h2 id="on-duty-heading" className="text-lg font-semibold">
        {SAFETY_WORDS.onDuty}
      </h2>
      {!onDuty ? (
        <Spinner label="Loading who is on duty" />
      ) : onDuty.length === 0 ? (
        <p className="text-gray-700">{SAFETY_WORDS.noOneOnDuty}</p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
          {onDuty.map(({ shift, officer, lastSeen }) => (
            <li key={shift.id} data-on-duty={shift.officer} className="p-3">
              <p className="font-medium">{personName(officer)}</p>
              <p className="text-sm text-gray-700">
                Since {formatDateTime(at(shift.started_at))}
                {' · '}
                {lastSeen ? (
                  <>
                    last seen {formatTime(at(lastSeen.at))} ({lastSeen.what === 'scan' ? 'a scan' : 'a report'}){' '}
                    <a href={positionMapUrl(lastSeen.position)} target="_blank" rel="noreferrer" className="underline">
                      Map
                    </a>
                  </>
                ) : shift.start_position ? (
                  <>
                    at the start{' '}
                    <a
                      href={positionMapUrl(shift.start_position)}
                      target="_blank"
                      rel="noreferrer"
                      className="underline"
                    >
                      Map
                    </a>
                  </>
                ) : (
                  'position unknown'
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SettingsSection({ me }: { me: Staff }) {
  const current = useSafetySettings(me.community);
  return (
    <section aria-labelledby="safety-settings" className="space-y-2">
      <h2 id="safety-settings" className="text-lg font-semibold">
        {SAFETY_WORDS.settings}
      </h2>
      {current ? (
        <SettingsForm key={current.record?.updated ?? 'defaults'} me={me} current={current} />
      ) : (
        <Spinner label="Loading settings" />
      )}
    </section>
  );
}

function SettingsForm({ me, current }: { me: Staff; current: NonNullable<ReturnType<typeof useSafetySettings>> }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const { register, handleSubmit, formState } = useForm<SafetySettingsValues>({
    resolver: zodResolver(safetySettingsSchema),
    defaultValues: current.settings,
  });
  const errors = formState.errors;
  async function save(values: SafetySettingsValues) {
    try {
      await queueSafetySettings(db, me, values, current.record);
      toast({ title: 'Success', description: 'Safety settings saved' });
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  }
  return (
    <form
      onSubmit={(event) => void handleSubmit(save)(event)}
      className="space-y-3 rounded-lg border border-gray-200 bg-white p-3"
      noValidate
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          label="Emergency number"
          type="tel"
          placeholder="+15615550911"
          error={errors.emergency_number?.message}
          {...register('emergency_number')}
        />
        <TextInput
          label="Shift limit (hours)"
          type="number"
          inputMode="numeric"
          min={SAFETY_LIMITS.shiftLimitHours.min}
          max={SAFETY_LIMITS.shiftLimitHours.max}
          error={errors.shift_limit_hours?.message}
          {...register('shift_limit_hours', { valueAsNumber: true })}
        />
        <TextInput
          label="Check-in every (minutes, 0 for off)"
          type="number"
          inputMode="numeric"
          min={0}
          max={SAFETY_LIMITS.checkMinutes.max}
          error={errors.check_minutes?.message}
          {...register('check_minutes', { valueAsNumber: true })}
        />
        <TextInput
          label="Answer within (minutes)"
          type="number"
          inputMode="numeric"
          min={SAFETY_LIMITS.checkGraceMinutes.min}
          max={SAFETY_LIMITS.checkGraceMinutes.max}
          error={errors.check_grace_minutes?.message}
          {...register('check_grace_minutes', { valueAsNumber: true })}
        />
      </div>
      <p className="text-xs text-gray-700">
        The emergency number is offered as a call when a panic cannot reach the server. A shift still open after the
        limit closes itself.
      </p>
      <SubmitButton busy={formState.isSubmitting}>Save</SubmitButton>
    </form>
  );
}
