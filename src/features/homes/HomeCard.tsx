/**
 * One home (docs/product.md#home-cards-and-the-desk-table): image, address line, residents, member number and
 * security code, the note preview, the Notice area, and the call and edit
 * buttons. On a phone the card is compact (at least three homes
 * on the first screen): the image is a small thumbnail beside the address,
 * and the notices follow the residents, so what an officer at a gate needs
 * is at the top. From `sm` up the photo spans the top of the card.
 */
import { useState } from 'react';
import type { LatestCallRow } from '../../data/resources/homes.ts';
import { CALL_HISTORY_TITLE, latestCallWord, nextTryWord } from '../../domain/callOutcome.ts';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { stateLabel } from '../../domain/states.ts';
import { streetLine } from '../../domain/address.ts';
import { HomePhoto } from './HomePhoto.tsx';
import { callJobFields, NOTICE_WORDS, type HomeNotice } from './homeNotices.ts';
import { residentNames } from './homeColumns.ts';
import { callTime, clockTime } from './callTime.ts';
import { useCallAttempts } from '../../data/resources/calls.ts';
import { notePreview } from './notePreview.ts';
import { PencilIcon, PhoneIcon, TrashIcon } from '../../ui/icons.tsx';

/**
 * A button of words among words ('show more', 'History'): 44 px tall for a
 * thumb on the phone (src/index.css), yet taking only its line's height, so
 * three homes still show on a phone's first screen; its box reaches over the
 * words above and below, which are no controls.
 */
const TEXT_BUTTON_TARGET = '-my-3 md:my-0';

const CARD_PHOTO_CLASS =
  'h-16 w-16 rounded-md bg-gray-200 object-cover sm:h-44 sm:w-full sm:rounded-none sm:rounded-t-lg';

export function addressLine(house: HouseWithPeople['house']): string {
  const street = streetLine(house);
  const region = [stateLabel(house.state ?? ''), house.zip].filter(Boolean).join(' ');
  return [street, house.city, region].filter(Boolean).join(', ');
}

/** True while the home, or its resident or phone, has changes the server has not confirmed. */
export function hasPendingChanges({ house, residents, phones }: HouseWithPeople): boolean {
  const pending = (row: object) => (row as { _pending?: 1 })._pending === 1;
  return pending(house) || residents.some(pending) || phones.some(pending);
}

function Note({ note }: { note: string }) {
  const [expanded, setExpanded] = useState(false);
  const preview = notePreview(note, expanded);
  return (
    <p className="text-sm break-words whitespace-pre-line text-gray-700">
      {/* A cut that ends on a space would leave a gap before the ellipsis. */}
      {preview.truncated ? `${preview.text.trimEnd()}…` : preview.text}
      {preview.toggle && (
        <>
          {' '}
          <button
            type="button"
            onClick={() => setExpanded(!expanded)}
            aria-expanded={expanded}
            className={`font-medium text-blue-800 underline ${TEXT_BUTTON_TARGET}`}
          >
            {preview.toggle}
          </button>
        </>
      )}
    </p>
  );
}

/** What the card offers for a call waiting for its next try (directors and managers). */
export interface RetriesControl {
  onCancel: () => void;
  /** Null when it can be done now; otherwise why not (offline). */
  disabledReason: string | null;
  /** The cancellation is on its way to the server. */
  busy: boolean;
}

/**
 * A call waiting for its next attempt (a busy number's retry, perhaps held
 * until quiet hours end): how the last attempt went and when the next one
 * is dialled, 'Busy — next try 08:00', not 'Call in progress...': nothing
 * rings now, and it may be hours away. Read from the call's attempts.
 */
function NextTry({ callId, address, retries }: { callId: string; address: string; retries?: RetriesControl }) {
  const attempts = useCallAttempts(callId, true);
  return (
    <>
      <span className="font-semibold">{nextTryWord(attempts ?? [], clockTime)}</span>
      {retries && (
        <button
          type="button"
          onClick={retries.onCancel}
          disabled={retries.disabledReason !== null || retries.busy}
          aria-busy={retries.busy || undefined}
          title={retries.disabledReason ?? undefined}
          aria-label={`Cancel retries of ${address}`}
          aria-description={retries.disabledReason ?? undefined}
          className="inline-flex min-h-11 min-w-11 items-center rounded border border-amber-700 bg-white px-3 font-medium text-amber-950 hover:bg-amber-100 disabled:border-gray-400 disabled:bg-gray-100 disabled:text-gray-800"
        >
          {retries.busy ? 'Cancelling…' : 'Cancel retries'}
        </button>
      )}
    </>
  );
}

interface NoticesProps {
  notices: HomeNotice[];
  onHouseCheck: () => void;
  address: string;
  latestCall?: LatestCallRow;
  retries?: RetriesControl;
  /** The same words and buttons on one line of a table row. */
  dense?: boolean;
}

/**
 * The Notice area: a box of its own on a card; `dense`, the same words and
 * buttons on one line of a table row.
 */
export function Notices({ notices, onHouseCheck, address, latestCall, retries, dense = false }: NoticesProps) {
  if (notices.length === 0) return null;
  return (
    <div
      aria-label="Notice"
      role="group"
      className={
        dense
          ? 'flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-amber-950'
          : 'flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-950 sm:p-2'
      }
    >
      {notices.includes('no-phone') && <span>{NOTICE_WORDS['no-phone']}</span>}
      {notices.includes('call-pending') && <span>{NOTICE_WORDS['call-pending']}</span>}
      {notices.includes('call-in-progress') && (
        // The dot pulses, not the words: fading text would drop below readable contrast.
        <span className="inline-flex items-center gap-1.5 font-semibold">
          <span
            aria-hidden="true"
            className="h-2.5 w-2.5 animate-pulse rounded-full bg-red-600 motion-reduce:animate-none"
          />
          {NOTICE_WORDS['call-in-progress']}
        </span>
      )}
      {notices.includes('call-waiting') && latestCall && (
        <NextTry callId={latestCall.call} address={address} retries={retries} />
      )}
      {notices.includes('house-check-due') && (
        <button
          type="button"
          onClick={onHouseCheck}
          className={`rounded bg-amber-600 font-medium text-ink hover:bg-amber-500 ${dense ? 'px-2 py-0.5' : 'px-3 py-1'}`}
        >
          {NOTICE_WORDS['house-check-due']}
        </button>
      )}
    </div>
  );
}

/**
 * The latest call in a word ('Answered 10:42', 'Voicemail', 'No answer after
 * 3 tries', 'Acknowledged') and the way to the home's 'Call history'.
 *
 * While a call runs or waits (`running`: the Notice area says so), no word:
 * not even the previous call's. Beside 'Call in progress...', 'Last call:
 * Answered 17:44' reads as this call's outcome, and the person at the card
 * wants to know how this call goes, not how the one before it went (that
 * stays in 'Call history'). The word comes when the call is over, in the
 * same moment the notice goes: both follow one state (cardCallState).
 */
export function LastCall({
  call,
  running,
  onCallHistory,
  callHistoryLabel,
  prefix = true,
}: {
  call: LatestCallRow;
  /** A call runs or waits: no word (see above). */
  running: boolean;
  onCallHistory: () => void;
  /** 'Last call:' before the word; a table's column says it in its header instead. */
  prefix?: boolean;
  /** The button's accessible name where many homes show one (a table), e.g. 'Call history of 12 Palm Way'. */
  callHistoryLabel?: string;
}) {
  const fields = callJobFields(call);
  // Only these words need the attempts (a time, a count of tries).
  const needsAttempts =
    !running &&
    fields.progress === 'done' &&
    !fields.acknowledged &&
    (fields.outcome === 'answered' || fields.outcome === 'no_answer');
  const attempts = useCallAttempts(call.call, needsAttempts);
  const word = running ? '' : latestCallWord(fields, attempts ?? [], (value) => callTime(value));
  return (
    <>
      {word && (
        <span>
          {prefix && 'Last call: '}
          <span className="font-semibold text-gray-900">{word}</span>
        </span>
      )}
      <button
        type="button"
        onClick={onCallHistory}
        aria-label={callHistoryLabel}
        className={`font-medium text-blue-800 underline ${TEXT_BUTTON_TARGET}`}
      >
        {CALL_HISTORY_TITLE}
      </button>
    </>
  );
}

export interface HomeCardProps {
  home: HouseWithPeople;
  imageUrl: string | null;
  notices: HomeNotice[];
  /** Null when calls are possible; otherwise why not (offline). */
  callDisabledReason: string | null;
  onCall: () => void;
  onEdit: () => void;
  /** Directors only (the server allows no one else); absent, no Delete button. */
  onDelete?: () => void;
  onHouseCheck: () => void;
  /** The home's newest call in the mirror; none, no call line. */
  latestCall?: LatestCallRow;
  /** Directors and managers: a call waiting for its next try can be stopped; absent, no Cancel retries. */
  retries?: RetriesControl;
  onCallHistory: () => void;
  /** Opens the home's History (every change of it, its residents and phones). */
  onHistory: () => void;
}

export function HomeCard({
  home,
  imageUrl,
  notices,
  callDisabledReason,
  onCall,
  onEdit,
  onDelete,
  onHouseCheck,
  latestCall,
  retries,
  onCallHistory,
  onHistory,
}: HomeCardProps) {
  const { house, residents } = home;
  const callRunning = notices.includes('call-in-progress') || notices.includes('call-waiting');
  const address = addressLine(house);
  const names = residentNames(residents);
  return (
    <article
      aria-label={address}
      className="grid flex-1 grid-cols-[4rem_minmax(0,1fr)] content-start gap-x-3 gap-y-2 rounded-lg border border-gray-200 bg-white p-3 shadow-sm sm:flex sm:flex-col sm:gap-0 sm:p-0"
    >
      <HomePhoto house={house} imageUrl={imageUrl} address={address} className={CARD_PHOTO_CLASS} />
      <div className="flex min-w-0 flex-col gap-1.5 sm:flex-1 sm:gap-2 sm:px-4 sm:pt-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="leading-snug font-semibold">{address}</h2>
          {hasPendingChanges(home) && (
            <span className="shrink-0 rounded-full bg-gray-200 px-2 py-0.5 text-xs font-medium text-gray-800">
              Not yet sent
            </span>
          )}
        </div>
        {names.length > 0 && (
          <ul aria-label="Residents" className="flex flex-wrap text-sm text-gray-800">
            {names.map((name, i) => (
              <li key={residents[i]?.id ?? i} className={i > 0 ? 'border-l border-gray-400 pl-2 ml-2' : ''}>
                {name}
              </li>
            ))}
          </ul>
        )}
        <Notices
          notices={notices}
          onHouseCheck={onHouseCheck}
          address={address}
          latestCall={latestCall}
          retries={retries}
        />
        {/* Lines 24 px apart when they wrap, and clear of the Notice area's buttons above: the 44 px boxes of
            their buttons (TEXT_BUTTON_TARGET) never overlap another control. */}
        <p
          className={`flex flex-wrap items-center gap-x-2 gap-y-6 text-sm text-gray-800 md:gap-y-0 ${notices.length > 0 ? 'mt-1.5 md:mt-0' : ''}`}
        >
          {latestCall && <LastCall call={latestCall} running={callRunning} onCallHistory={onCallHistory} />}
          <HomeHistoryButton address={address} onHistory={onHistory} />
        </p>
        {(house.member_number || house.security_code) && (
          <dl className="flex flex-wrap gap-x-4 text-sm text-gray-700">
            {house.member_number && (
              <div className="flex gap-1">
                <dt>Member #:</dt>
                <dd className="font-medium text-gray-900">{house.member_number}</dd>
              </div>
            )}
            {house.security_code && (
              <div className="flex gap-1">
                <dt>Security code:</dt>
                <dd className="font-medium text-gray-900">{house.security_code}</dd>
              </div>
            )}
          </dl>
        )}
        {house.note && <Note key={house.id} note={house.note} />}
      </div>
      <div className="col-span-2 flex items-center justify-end gap-2 sm:px-4 sm:pt-2 sm:pb-4">
        <HomeActionButtons
          address={address}
          callDisabledReason={callDisabledReason}
          onCall={onCall}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      </div>
    </article>
  );
}

/**
 * Call, Edit and (directors) Delete of one home: the card's buttons, and
 * the same buttons in a row of the desk's table (`dense`: smaller, words
 * without icons, so a row keeps its room for the home).
 */
export function HomeActionButtons({
  address,
  callDisabledReason,
  onCall,
  onEdit,
  onDelete,
  dense = false,
}: Pick<HomeCardProps, 'callDisabledReason' | 'onCall' | 'onEdit' | 'onDelete'> & {
  address: string;
  dense?: boolean;
}) {
  const size = dense ? 'px-2 py-0.5' : 'px-3 py-1.5 sm:py-2';
  return (
    <>
      <button
        type="button"
        onClick={onCall}
        disabled={callDisabledReason !== null}
        title={callDisabledReason ?? undefined}
        aria-label={`Call resident of ${address}`}
        aria-description={callDisabledReason ?? undefined}
        className={`inline-flex items-center gap-1 rounded bg-black ${size} text-sm font-medium text-white disabled:bg-gray-400 disabled:text-gray-900`}
      >
        {!dense && <PhoneIcon />}
        Call
      </button>
      <button
        type="button"
        onClick={onEdit}
        aria-label={`Edit ${address}`}
        className={`inline-flex items-center gap-1 rounded border border-gray-300 ${size} text-sm font-medium hover:bg-gray-100`}
      >
        {!dense && <PencilIcon />}
        Edit
      </button>
      {onDelete && (
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete ${address}`}
          className={`inline-flex items-center gap-1 rounded border border-red-300 ${size} text-sm font-medium text-red-800 hover:bg-red-50`}
        >
          {!dense && <TrashIcon />}
          Delete
        </button>
      )}
    </>
  );
}

/** The way to the home's History (every change of it, its residents and phones). */
export function HomeHistoryButton({ address, onHistory }: { address: string; onHistory: () => void }) {
  return (
    <button
      type="button"
      onClick={onHistory}
      aria-label={`History of ${address}`}
      className={`font-medium text-blue-800 underline ${TEXT_BUTTON_TARGET}`}
    >
      History
    </button>
  );
}
