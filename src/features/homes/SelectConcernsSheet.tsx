/**
 * The Select concerns sheet (docs/product.md#calls-to-residents): choose up to three concerns,
 * hear the script, and ask the server to call the resident. Calls need a
 * connection; everything else here reads the mirror. It shows the numbers
 * in the order they will be tried, with the do-not-call ones and why; in the
 * community's quiet hours the confirmation asks 'It is 22:14 for the
 * resident, within the community's quiet hours (21:00–08:00). Call
 * anyway?' (from the mirror's settings, or from the server's
 * answer when they changed meanwhile).
 */
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import type { ConcernRecord, PhoneRecord } from '../../api/records.ts';
import { useSignedInUser } from '../../data/auth.ts';
import { useCallSettings } from '../../data/resources/callSettings.ts';
import { useConcerns } from '../../data/resources/concerns.ts';
import { useOnline } from '../../data/hooks.ts';
import { useOnlineActions } from '../../data/onlineActions.ts';
import { quietHoursLocalTime } from '../../data/resources/calls.ts';
import { CALL_HISTORY_WORDS, callOrder } from '../../domain/callHistory.ts';
import { quietHoursAt, quietHoursQuestion, type QuietMoment } from '../../domain/quietHours.ts';
import { formatPhone } from '../../ui/format.ts';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { composeScript } from '../../domain/callScript.ts';
import { searchList } from '../../domain/search.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { inputClass, searchBoxProps } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast.tsx';
import { initialSelection, LIMIT_EXCEEDED_MESSAGE, toggleConcern } from './concernSelection.ts';
import { addressLine } from './HomeCard.tsx';
import { pendingConcernIds } from './homeNotices.ts';
import { useCommunityName } from '../../data/resources/community.ts';
import { OFFLINE_CALLS } from '../../ui/offlineWords.ts';

const speechSupported = () =>
  typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance !== 'undefined';

function ScriptPreview({ script }: { script: string }) {
  const canSpeak = speechSupported();
  // Stop speaking when the sheet closes.
  useEffect(() => () => (canSpeak ? window.speechSynthesis.cancel() : undefined), [canSpeak]);
  const play = () => {
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(script));
  };
  return (
    <section aria-labelledby="script-heading" className="rounded-lg bg-gray-100 p-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id="script-heading" className="text-sm font-semibold">
          Script
        </h3>
        <button
          type="button"
          onClick={play}
          disabled={!canSpeak}
          title={canSpeak ? undefined : 'This browser cannot speak the script.'}
          className="rounded border border-gray-400 bg-white px-3 py-1 text-sm font-medium disabled:opacity-60"
        >
          Play
        </button>
      </div>
      <p className="mt-2 text-sm text-gray-800">{script}</p>
    </section>
  );
}

function Numbers({ phones }: { phones: readonly PhoneRecord[] }) {
  const ordered = callOrder(phones.map((p) => ({ ...p, type: p.type ?? '' })));
  if (ordered.length === 0) return null;
  return (
    <section aria-labelledby="numbers-heading">
      <h3 id="numbers-heading" className="text-sm font-semibold">
        Numbers, in the order they are tried
      </h3>
      <ol className="mt-1 space-y-1 text-sm">
        {ordered.map((phone) => (
          <li key={phone.id} className="flex flex-wrap gap-x-2">
            <span className={phone.do_not_call ? 'text-gray-700 line-through' : 'font-medium'}>
              {formatPhone(phone.phone_number)}
            </span>
            {phone.type && <span className="text-gray-700">({phone.type})</span>}
            {phone.do_not_call && <span className="text-gray-800">{CALL_HISTORY_WORDS.doNotCall}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

export interface SelectConcernsSheetProps {
  home: HouseWithPeople;
  onClose: () => void;
  /** The server accepted the call (its id, '' if the server named none): the card shows 'Call in progress...'. */
  onCallPlaced: (callId: string) => void;
}

export function SelectConcernsSheet({ home, onClose, onCallPlaced }: SelectConcernsSheetProps) {
  const concerns = useConcerns();
  const user = useSignedInUser();
  const communityName = useCommunityName(user?.community);
  const online = useOnline();
  const { placeCall } = useOnlineActions();
  const callSettings = useCallSettings(user?.community);
  const toast = useToast();
  const [search, setSearch] = useState('');
  // null until the user changes the choice: until then it is the house's pending concerns.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The resident's local time and the quiet hours when the call falls in them: the confirmation asks about it.
  const [quietTime, setQuietTime] = useState<QuietMoment | null>(null);
  const [calling, setCalling] = useState(false);

  const byId = useMemo(() => new Map((concerns ?? []).map((c) => [c.id, c])), [concerns]);
  const selected = picked ?? initialSelection(pendingConcernIds(home.house), new Set(byId.keys()));
  const chosen = selected.map((id) => byId.get(id)).filter((c): c is ConcernRecord => c !== undefined);
  const shown = concerns ? searchList(concerns, search, (c) => [c.name]) : undefined;

  function toggle(id: string) {
    const result = toggleConcern(selected, id);
    if (result.limitExceeded) toast({ title: 'Fail', description: LIMIT_EXCEEDED_MESSAGE, variant: 'destructive' });
    else setPicked(result.selected);
  }

  const callable = home.phones.some((p) => p.phone_number && !p.do_not_call);
  const allDoNotCall = home.phones.length > 0 && !callable;

  function askToConfirm() {
    const quiet = callSettings ? quietHoursAt(callSettings.settings, Date.now()) : null;
    setQuietTime(
      callSettings && quiet?.quiet
        ? {
            localTime: quiet.localTime,
            quietStart: callSettings.settings.quietStart,
            quietEnd: callSettings.settings.quietEnd,
          }
        : null,
    );
    setConfirming(true);
  }

  async function call() {
    setCalling(true);
    try {
      // A yes to the quiet-hours question is the caller's explicit override.
      const placed = await placeCall(home.house.id, chosen, { overrideQuietHours: quietTime !== null });
      toast({ title: 'Success', description: placed.message });
      onCallPlaced(placed.callId);
      onClose();
    } catch (error) {
      const serverQuietTime = quietHoursLocalTime(error);
      if (serverQuietTime !== null && quietTime === null) {
        // The server's settings say quiet hours (changed since the mirror's): ask, then call on a yes.
        setQuietTime(serverQuietTime);
        return;
      }
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
      setConfirming(false);
    } finally {
      setCalling(false);
    }
  }

  return (
    <Sheet open onClose={onClose} title="Select concerns">
      <div className="space-y-4">
        <p className="text-sm text-gray-700">{addressLine(home.house)}</p>
        {chosen.length > 0 && (
          <ul aria-label="Chosen concerns" className="flex flex-wrap gap-2">
            {chosen.map((concern) => (
              <li
                key={concern.id}
                className="flex items-center gap-1 rounded-full bg-black py-1 pr-1 pl-3 text-sm text-white"
              >
                {concern.name}
                <button
                  type="button"
                  onClick={() => toggle(concern.id)}
                  aria-label={`Remove ${concern.name}`}
                  className="rounded-full px-2 leading-none hover:bg-white/20"
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <label htmlFor="concern-search" className="sr-only">
            Search concerns
          </label>
          <input
            id="concern-search"
            {...searchBoxProps}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search concerns..."
            className={inputClass}
          />
        </div>
        {shown === undefined ? (
          <p role="status" className="py-4 text-center text-sm text-gray-700">
            Loading concerns...
          </p>
        ) : shown.length === 0 ? (
          <p className="py-4 text-center text-sm text-gray-700">No concerns found</p>
        ) : (
          <ul
            aria-label="Concerns"
            className="max-h-64 divide-y divide-gray-200 overflow-y-auto rounded-lg border border-gray-200"
          >
            {shown.map((concern) => (
              <li key={concern.id}>
                <label className="flex cursor-pointer items-start gap-3 p-3 hover:bg-gray-50">
                  <input
                    type="checkbox"
                    checked={selected.includes(concern.id)}
                    onChange={() => toggle(concern.id)}
                    className="mt-1 h-4 w-4 shrink-0 accent-black"
                  />
                  <span>
                    <span className="block font-medium">{concern.name}</span>
                    <span className="block text-sm text-gray-700">{concern.hint}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {chosen.length > 0 && (
          <ScriptPreview
            script={composeScript(
              communityName ?? '',
              chosen.map((c) => c.say),
            )}
          />
        )}
        <Numbers phones={home.phones} />
        <div>
          <button
            type="button"
            onClick={askToConfirm}
            disabled={chosen.length === 0 || !online || allDoNotCall}
            className="w-full rounded bg-black py-2 font-medium text-white disabled:bg-gray-400 disabled:text-gray-900"
          >
            Reach Out To Resident
          </button>
          {!online && <p className="mt-2 text-sm text-gray-800">{OFFLINE_CALLS}</p>}
          {allDoNotCall && <p className="mt-2 text-sm text-gray-800">{CALL_HISTORY_WORDS.noCallableNumber}</p>}
        </div>
      </div>
      <ConfirmDialog
        open={confirming && online}
        title={quietTime !== null ? quietHoursQuestion(quietTime) : 'Are you sure you want to call the resident?'}
        confirmLabel={quietTime !== null ? 'Call anyway' : 'Call'}
        busy={calling}
        onConfirm={() => void call()}
        onCancel={() => setConfirming(false)}
      />
    </Sheet>
  );
}
