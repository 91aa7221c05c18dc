/**
 * The Select concerns sheet (spec §2, §4): choose up to three concerns,
 * hear the script, and ask the server to call the resident. Calls need a
 * connection; everything else here reads the mirror.
 */
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../api/errorMessage.ts';
import type { ConcernRecord } from '../../api/records.ts';
import { useSignedInUser } from '../../data/auth.ts';
import { useConcerns, useOnline, useOnlineActions } from '../../data/hooks.ts';
import type { HouseWithPeople } from '../../data/queries.ts';
import { composeScript } from '../../domain/callScript.ts';
import { searchList } from '../../domain/search.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast.tsx';
import { initialSelection, LIMIT_EXCEEDED_MESSAGE, toggleConcern } from './concernSelection.ts';
import { addressLine } from './HomeCard.tsx';
import { pendingConcernIds } from './homeNotices.ts';
import { OFFLINE_CALL_REASON, useCommunityName } from './hooks.ts';

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

export interface SelectConcernsSheetProps {
  home: HouseWithPeople;
  onClose: () => void;
  /** The server accepted the call: the card shows 'Call in progress...'. */
  onCallPlaced: () => void;
}

export function SelectConcernsSheet({ home, onClose, onCallPlaced }: SelectConcernsSheetProps) {
  const concerns = useConcerns();
  const user = useSignedInUser();
  const communityName = useCommunityName(user?.community);
  const online = useOnline();
  const { placeCall } = useOnlineActions();
  const toast = useToast();
  const [search, setSearch] = useState('');
  // null until the user changes the choice: until then it is the house's pending concerns.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
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

  async function call() {
    setCalling(true);
    try {
      const message = await placeCall(home.house.id, chosen);
      toast({ title: 'Success', description: message });
      onCallPlaced();
      onClose();
    } catch (error) {
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
            type="search"
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
        <div>
          <button
            type="button"
            onClick={() => setConfirming(true)}
            disabled={chosen.length === 0 || !online}
            className="w-full rounded bg-black py-2 font-medium text-white disabled:bg-gray-400 disabled:text-gray-900"
          >
            Reach Out To Resident
          </button>
          {!online && <p className="mt-2 text-sm text-gray-800">{OFFLINE_CALL_REASON}</p>}
        </div>
      </div>
      <ConfirmDialog
        open={confirming && online}
        title="Are you sure you want to call the resident?"
        confirmLabel="Call"
        busy={calling}
        onConfirm={() => void call()}
        onCancel={() => setConfirming(false)}
      />
    </Sheet>
  );
}
