/**
 * What officer safety puts on every signed-in screen (docs/product.md#on-duty-and-alerts):
 * the 'Panic' button while the officer is on duty, its five-second
 * countdown with a large 'Cancel', the alarm banner of every alert that is
 * on, with who is responding, and 'Start shift' / 'End shift' for the menu.
 * Loaded on its own after the first screen (src/app/Layout.tsx), so it
 * costs the first paint nothing.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { locateForReport } from '../../data/devicePosition.ts';
import { useOnline } from '../../data/hooks.ts';
import {
  checkIn,
  checkInTimes,
  endShift,
  raisePanic,
  startShift,
  takeAlertStep,
  useAlertQueued,
  useMyShift,
  useOpenAlerts,
  useSafetySettings,
  type AlertView,
  type DutyShift,
} from '../../data/resources/safety.ts';
import { PANIC_COUNTDOWN_SECONDS } from '../../domain/safetySchemas.ts';
import { positionMapUrl } from '../../domain/whereAndWhen.ts';
import { formatTime, personName } from '../../ui/format.ts';
import { useToast } from '../../ui/toast.tsx';
import { useNow } from '../../ui/useNow.ts';
import { useAlarmSound } from './alarmSound.ts';
import { ALERT_KIND_WORDS } from '../../ui/alertWords.ts';
import { FALLBACK_EMERGENCY_NUMBER, SAFETY_WORDS } from './safetyWords.ts';

/** The layout's one door into this chunk (one lazy component: each costs the first load's code a little). */
export default function SafetySlot({ slot, onDone }: { slot: 'panic' | 'alarms' | 'shift'; onDone?: () => void }) {
  if (slot === 'alarms') return <AlarmBanners />;
  if (slot === 'shift') return <ShiftMenuButton onDone={onDone} />;
  return <SafetyLayer />;
}

export function SafetyLayer() {
  const me = useSignedInStaff();
  return me ? <PanicButton me={me} /> : null;
}

/** The alarms that are on, in the navigation bar (src/app/Layout.tsx): they push the screen down, never cover it. */
export function AlarmBanners() {
  const me = useSignedInStaff();
  return me ? <AlarmsFor me={me} /> : null;
}

function AlarmsFor({ me }: { me: Staff }) {
  const alerts = useOpenAlerts();
  // Ringing while an alert of someone else is on that this user has not answered.
  const unanswered = (alerts ?? []).some(
    (view) => view.alert.officer !== me.id && !view.steps.some(({ event }) => event.by === me.id),
  );
  useAlarmSound(unanswered);
  if (!alerts || alerts.length === 0) return null;
  return (
    <div className="flex max-h-[50vh] flex-col gap-2 overflow-y-auto p-2" role="alert" aria-live="assertive">
      {alerts.map((view) => (
        <AlarmBanner key={view.alert.id} view={view} me={me} />
      ))}
    </div>
  );
}

/** 'Panic' while the officer is on duty, bottom right where a thumb reaches, and its countdown. */
function PanicButton({ me }: { me: Staff }) {
  const shift = useMyShift(me.id);
  const [panicking, setPanicking] = useState(false);
  return (
    <>
      {shift && !panicking && <CheckInPrompt me={me} shift={shift} />}
      {/* Room at the end of the screen, so the button never hides its last row. */}
      {shift && <div aria-hidden="true" className="h-24" />}
      {shift && !panicking && (
        <button
          type="button"
          onClick={() => setPanicking(true)}
          className="fixed right-4 bottom-[calc(env(safe-area-inset-bottom)+6rem)] z-[55] flex size-20 items-center justify-center rounded-full bg-red-700 text-lg font-bold text-white shadow-lg ring-4 ring-white hover:bg-red-800 focus-visible:ring-red-300 md:bottom-6"
        >
          {SAFETY_WORDS.panic}
        </button>
      )}
      {panicking && <PanicFlow me={me} onClose={() => setPanicking(false)} />}
    </>
  );
}

/** 'Are you OK?' once the lone-worker check is due, with a large 'I'm OK' (the community's check: Safety settings). */
function CheckInPrompt({ me, shift }: { me: Staff; shift: DutyShift }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const settings = useSafetySettings(me.community);
  // Each quarter minute: a check falls due while the screen is open.
  const now = useNow(15_000).getTime();
  const times = settings ? checkInTimes(shift, settings.settings) : null;
  if (!times || now < times.due) return null;
  async function answer() {
    try {
      await checkIn(db, me, shift);
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  }
  return (
    <section
      aria-label={SAFETY_WORDS.areYouOk}
      className="fixed inset-x-4 bottom-[calc(env(safe-area-inset-bottom)+12rem)] z-[56] rounded-xl bg-amber-300 p-4 text-black shadow-xl md:right-6 md:bottom-32 md:left-auto md:w-80"
    >
      <p className="text-xl font-bold">{SAFETY_WORDS.areYouOk}</p>
      <p className="mt-1 text-sm">{now >= times.missedAt ? SAFETY_WORDS.checkInMissed : SAFETY_WORDS.checkInDue}</p>
      <button
        type="button"
        onClick={() => void answer()}
        className="mt-3 min-h-14 w-full rounded-lg bg-black text-lg font-bold text-white hover:bg-gray-800"
      >
        {SAFETY_WORDS.imOk}
      </button>
    </section>
  );
}

type PanicStage = { stage: 'counting'; left: number } | { stage: 'sending' } | { stage: 'raised'; alertId: string };

/** The countdown, then the alert: sent, or queued offline with the emergency number to call. */
function PanicFlow({ me, onClose }: { me: Staff; onClose: () => void }) {
  const { db } = useSyncEngine();
  const shift = useMyShift(me.id);
  const settings = useSafetySettings(me.community);
  const online = useOnline();
  const toast = useToast();
  const [stage, setStage] = useState<PanicStage>({ stage: 'counting', left: PANIC_COUNTDOWN_SECONDS });
  // Looking for the position starts with the press: at zero the alert waits for it a moment at most.
  const position = useRef(locateForReport());

  const fire = useEffectEvent(async () => {
    setStage({ stage: 'sending' });
    try {
      const at = await position.current(1_000);
      const alertId = await raisePanic(db, me, at, shift ?? null);
      setStage({ stage: 'raised', alertId });
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
      onClose();
    }
  });

  // One second a step; after the last, the alert goes (a Cancel before then sends nothing).
  useEffect(() => {
    if (stage.stage !== 'counting') return;
    const timer = window.setTimeout(() => {
      if (stage.left > 1) setStage({ stage: 'counting', left: stage.left - 1 });
      else void fire();
    }, 1000);
    return () => window.clearTimeout(timer);
  }, [stage]);

  const queued = useAlertQueued(stage.stage === 'raised' ? stage.alertId : null) ?? true;
  const emergency = settings?.settings.emergency_number || FALLBACK_EMERGENCY_NUMBER;

  return (
    <Dialog open onClose={() => stage.stage === 'counting' && onClose()} className="relative z-[70]">
      <div className="fixed inset-0 bg-red-900/90" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 text-center shadow-xl">
          {stage.stage === 'counting' ? (
            <>
              <DialogTitle className="text-2xl font-bold text-red-800">
                {SAFETY_WORDS.countdown(stage.left)}
              </DialogTitle>
              <p className="mt-3 text-gray-700">{SAFETY_WORDS.countdownHelp}</p>
              <button
                type="button"
                autoFocus
                onClick={onClose}
                className="mt-6 min-h-20 w-full rounded-xl bg-black text-2xl font-bold text-white hover:bg-gray-800"
              >
                {SAFETY_WORDS.cancel}
              </button>
            </>
          ) : (
            <>
              <DialogTitle className="text-xl font-bold text-red-800">
                {stage.stage === 'sending'
                  ? SAFETY_WORDS.sending
                  : queued || !online
                    ? SAFETY_WORDS.queued
                    : SAFETY_WORDS.sent}
              </DialogTitle>
              {(queued || !online) && (
                <a
                  href={`tel:${emergency}`}
                  className="mt-5 flex min-h-16 w-full items-center justify-center rounded-xl bg-red-700 text-xl font-bold text-white hover:bg-red-800"
                >
                  {SAFETY_WORDS.callEmergency(emergency)}
                </a>
              )}
              <button
                type="button"
                onClick={onClose}
                className="mt-4 min-h-12 w-full rounded-xl border border-gray-300 font-medium hover:bg-gray-100"
              >
                Close
              </button>
            </>
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** One alert that is on: who, when, where, who responds; the steps this user may take. */
function AlarmBanner({ view, me }: { view: AlertView; me: Staff }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const { alert, officer, responders } = view;
  const mine = alert.officer === me.id;
  const iRespond = responders.some((user) => user.id === me.id);
  const manages = me.type === 'director' || me.type === 'manager';
  const raisedAt = new Date(alert.raised_at.replace(' ', 'T'));

  async function step(kind: 'responding' | 'safe' | 'resolved') {
    try {
      await takeAlertStep(db, me, alert, kind);
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <section
      aria-label={`${ALERT_KIND_WORDS[alert.kind]}: ${personName(officer)}`}
      data-alert={alert.id}
      className="mx-auto w-full max-w-3xl rounded-lg bg-red-700 p-3 text-white shadow-lg"
    >
      <p className="text-lg font-bold">
        {mine
          ? `Your ${ALERT_KIND_WORDS[alert.kind].toLowerCase()} alert is on`
          : `${ALERT_KIND_WORDS[alert.kind]}: ${personName(officer)}`}
        <span className="ml-2 font-normal">{formatTime(raisedAt)}</span>
      </p>
      <p className="mt-1 text-sm" data-responders>
        {responders.length === 0
          ? SAFETY_WORDS.noOneYet
          : `Responding: ${responders.map((user) => personName(user)).join(', ')}`}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {alert.position && (
          <a
            href={positionMapUrl(alert.position)}
            target="_blank"
            rel="noreferrer"
            className="flex min-h-11 items-center rounded bg-white/15 px-3 font-medium underline"
          >
            Map
          </a>
        )}
        {!mine &&
          (iRespond ? (
            <span className="flex min-h-11 items-center px-1 font-medium">{SAFETY_WORDS.youResponding}</span>
          ) : (
            <button
              type="button"
              onClick={() => void step('responding')}
              className="min-h-11 rounded bg-white px-4 font-bold text-red-800 hover:bg-red-50"
            >
              {SAFETY_WORDS.responding}
            </button>
          ))}
        {mine && (
          <button
            type="button"
            onClick={() => void step('safe')}
            className="min-h-11 rounded bg-white px-4 font-bold text-red-800 hover:bg-red-50"
          >
            {SAFETY_WORDS.safe}
          </button>
        )}
        {!mine && manages && (
          <button
            type="button"
            onClick={() => void step('resolved')}
            className="min-h-11 rounded border border-white/70 px-4 font-medium hover:bg-white/15"
          >
            {SAFETY_WORDS.resolved}
          </button>
        )}
      </div>
    </section>
  );
}

/** 'Start shift' or 'End shift' in the menu: position and time kept, offline through the outbox. */
export function ShiftMenuButton({ onDone }: { onDone?: () => void }) {
  const me = useSignedInStaff();
  const { db } = useSyncEngine();
  const toast = useToast();
  const shift = useMyShift(me?.id);
  const [busy, setBusy] = useState(false);
  if (!me || shift === undefined) return null;

  async function toggle() {
    if (!me || busy) return;
    setBusy(true);
    try {
      const at = await locateForReport()(1_500);
      if (shift) await endShift(db, me, shift, at);
      else await startShift(db, me, at);
      toast({ title: 'Success', description: shift ? SAFETY_WORDS.shiftEnded : SAFETY_WORDS.shiftStarted });
      onDone?.();
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => void toggle()}
      className={`whitespace-nowrap rounded px-3 py-2 text-sm font-medium ${shift ? 'bg-amber-400 text-black hover:bg-amber-300' : 'text-white hover:bg-white/15'}`}
    >
      {shift ? SAFETY_WORDS.endShift : SAFETY_WORDS.startShift}
    </button>
  );
}
