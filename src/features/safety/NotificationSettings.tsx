/**
 * The Notifications section of the Safety screen (docs/product.md#on-duty-and-alerts):
 * whether this phone gets the server's push notifications (panic alerts,
 * missed check-ins…) even with the app closed, the button that turns them
 * on or off, and what this user is sent, by kind. The subscription and the
 * choices live on the server (src/data/resources/push.ts): each action
 * needs a connection, except turning off, which the browser does alone.
 */
import { useState } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useOnline } from '../../data/hooks.ts';
import {
  disablePush,
  enablePush,
  PushProblem,
  saveNotificationPrefs,
  useNotificationPrefs,
  usePushState,
  type NotificationKind,
} from '../../data/resources/push.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { KIND_CHOICES, NOTIFICATION_WORDS, PUSH_PROBLEM_WORDS, pushStateWords } from './notificationWords.ts';

export function NotificationSettings() {
  const me = useSignedInStaff();
  const online = useOnline();
  return me ? <NotificationSettingsFor me={me} online={online} /> : null;
}

/** The section for `me`, given whether the app is online (its tests render it without a sync engine). */
export function NotificationSettingsFor({ me, online }: { me: Staff; online: boolean }) {
  return (
    <section aria-labelledby="notifications-heading" className="space-y-2">
      <h2 id="notifications-heading" className="text-lg font-semibold">
        {NOTIFICATION_WORDS.title}
      </h2>
      <ThisPhone me={me} online={online} />
      <Choices me={me} online={online} />
    </section>
  );
}

const failure = (error: unknown) =>
  error instanceof PushProblem ? PUSH_PROBLEM_WORDS[error.reason] : errorMessage(error);

const buttonClass =
  'flex min-h-11 items-center justify-center gap-2 rounded px-4 py-2 font-medium disabled:cursor-not-allowed disabled:opacity-60';

function ThisPhone({ me, online }: { me: Staff; online: boolean }) {
  const { state, refresh } = usePushState(online);
  const [busy, setBusy] = useState<'on' | 'off' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function turnOn() {
    setProblem(null);
    setBusy('on');
    try {
      // First thing in the click: the browser asks for the permission only within the user's gesture.
      const outcome = await enablePush(me);
      if (outcome === 'offline') setProblem(NOTIFICATION_WORDS.offlineTurningOn);
      else if (outcome === 'default' || outcome === 'denied') setProblem(NOTIFICATION_WORDS.notAllowed);
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(null);
      refresh();
    }
  }

  async function turnOff() {
    setProblem(null);
    setBusy('off');
    try {
      await disablePush();
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(null);
      refresh();
    }
  }

  const support = state?.support;
  const canAsk = support === 'default' || support === 'granted';
  return (
    <div className="space-y-3 rounded-lg border border-gray-200 bg-white p-3">
      <p role="status" data-push-state={!state ? 'checking' : state.on ? 'on' : state.support}>
        {state ? pushStateWords(state.support, state.on) : NOTIFICATION_WORDS.checking}
      </p>
      {support === 'needs-install' && (
        <ol className="list-decimal space-y-1 pl-6">
          {NOTIFICATION_WORDS.installSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
      {state &&
        canAsk &&
        (state.on ? (
          <button
            type="button"
            className={`${buttonClass} border border-gray-400 bg-white text-gray-900`}
            disabled={busy !== null}
            onClick={() => void turnOff()}
          >
            {busy === 'off' && <Spinner size={18} label={NOTIFICATION_WORDS.turningOff} />}
            {NOTIFICATION_WORDS.turnOff}
          </button>
        ) : (
          <button
            type="button"
            className={`${buttonClass} bg-black text-white`}
            disabled={busy !== null || !online}
            onClick={() => void turnOn()}
          >
            {busy === 'on' && <Spinner size={18} label={NOTIFICATION_WORDS.turningOn} />}
            {NOTIFICATION_WORDS.turnOn}
          </button>
        ))}
      {state && canAsk && !state.on && !online && (
        <p className="text-sm text-gray-700">{NOTIFICATION_WORDS.offlineTurningOn}</p>
      )}
      {problem && (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      )}
      <p className="text-sm text-gray-700">{NOTIFICATION_WORDS.inApp}</p>
    </div>
  );
}

function Choices({ me, online }: { me: Staff; online: boolean }) {
  const { prefs, set } = useNotificationPrefs(me, online);
  const [saving, setSaving] = useState(false);
  const [note, setNote] = useState<{ failed: boolean; text: string } | null>(null);
  const manages = me.type === 'director' || me.type === 'manager';
  const shown = KIND_CHOICES.filter((choice) => manages || !choice.managersOnly);
  const muted = prefs.status === 'ready' ? prefs.muted : null;

  async function choose(kind: NotificationKind, wanted: boolean) {
    if (!muted) return;
    const before = muted;
    const next = wanted ? before.filter((k) => k !== kind) : [...before, kind];
    set(next);
    setSaving(true);
    setNote(null);
    try {
      set(await saveNotificationPrefs(me, next));
      setNote({ failed: false, text: NOTIFICATION_WORDS.saved });
    } catch (error) {
      set(before);
      setNote({ failed: true, text: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <div role="group" aria-labelledby="notification-choices" className="rounded-lg border border-gray-200 bg-white p-3">
      <h3 id="notification-choices" className="font-medium">
        {NOTIFICATION_WORDS.choices}
      </h3>
      <p className="text-sm text-gray-700">{NOTIFICATION_WORDS.choicesNote}</p>
      {muted ? (
        <ul className="mt-1">
          {shown.map((choice) => (
            <li key={choice.kind}>
              <label className="flex min-h-11 flex-wrap items-center gap-x-3 gap-y-1 py-1">
                <input
                  type="checkbox"
                  className="size-5 shrink-0"
                  checked={!muted.includes(choice.kind)}
                  disabled={saving || !online}
                  onChange={(event) => void choose(choice.kind, event.target.checked)}
                />
                <span>{choice.label}</span>
                {choice.recommended && (
                  <span className="rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
                    {NOTIFICATION_WORDS.recommended}
                  </span>
                )}
              </label>
            </li>
          ))}
        </ul>
      ) : prefs.status === 'loading' ? (
        <Spinner label="Loading your choices" />
      ) : null}
      {!online ? (
        <p className="mt-1 text-sm text-gray-700">{NOTIFICATION_WORDS.offlineChoices}</p>
      ) : prefs.status === 'failed' ? (
        <p role="alert" className="mt-1 rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorMessage(prefs.error)}
        </p>
      ) : saving ? (
        <p className="mt-1 text-sm text-gray-700">{NOTIFICATION_WORDS.saving}</p>
      ) : note ? (
        <p
          role={note.failed ? 'alert' : 'status'}
          className={`mt-1 text-sm ${note.failed ? 'rounded bg-red-50 px-3 py-2 text-red-800' : 'text-gray-700'}`}
        >
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
