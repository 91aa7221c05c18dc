/**
 * The daily activity report: for a chosen day (today at first)
 * and officer (or all), everything logged that day in time order (house
 * checks, reports with their narratives and photos, calls with their
 * outcomes), shown as a preview and downloaded as a PDF made on the device
 * from the mirror, so it works offline for the days the mirror holds.
 */
import { endOfDay } from 'date-fns';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDayRecords } from '../../data/resources/activity.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { reportPhotoUrl, useFileToken, withFileToken } from '../../data/fileToken.ts';
import { SHOWS_REPORTS_AND_ROUNDS, useHistoryRange } from '../../data/resources/historyRange.ts';
import { isPendingFileName } from '../../data/hooks.ts';
import { PHOTO_THUMB, reportPhotoThumb } from '../../data/photoFiles.ts';
import { ROUND_STATUS_TONE } from '../../ui/roundWords.ts';
import { saveBlob } from '../../ui/saveBlob.ts';
import { DateField } from '../../ui/DateField.tsx';
import { formatDate, personName } from '../../ui/format.ts';
import { SelectInput } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { RangeNote } from '../../ui/RangeNote.tsx';
import { useToast } from '../../ui/toast.tsx';
import {
  ALL_OFFICERS,
  buildDayModel,
  countsLine,
  roundSummary,
  dayBounds,
  dayReportFileName,
  DAY_REPORT_TITLE,
  ENTRY_KIND_LABELS,
  entrySummary,
  type ActivityEntry,
  type DayModel,
} from './dayModel.ts';
import type { PdfPhoto } from './dayPdf.ts';
import { OFFLINE_DAY_NOT_ON_DEVICE } from '../../ui/offlineWords.ts';

const isFutureDay = (day: Date) => day > endOfDay(new Date());

const KIND_BADGE: Record<ActivityEntry['kind'], string> = {
  house_check: 'bg-emerald-100 text-emerald-900',
  report: 'bg-sky-100 text-sky-900',
  call: 'bg-amber-100 text-amber-900',
};
/** A house check answered No: its badge says so at a glance (the line under it says 'Everything ok: No'). */
const ISSUES_BADGE = 'bg-red-100 text-red-900';

export function DailyReportPage() {
  const [day, setDay] = useState(() => new Date());
  const [officerId, setOfficerId] = useState<string | null>(null);
  const [making, setMaking] = useState(false);
  const { from, to } = dayBounds(day);
  // Days before the first sync's two months are pulled into the mirror on demand (and kept for offline).
  const range = useHistoryRange(from, to, SHOWS_REPORTS_AND_ROUNDS);
  const records = useDayRecords(from, to);
  const model = useMemo(
    () => (records ? buildDayModel(records, day, officerId) : undefined),
    [records, day, officerId],
  );
  const officers = useMemo(
    () => [...(records?.staff ?? [])].sort((a, b) => personName(a).localeCompare(personName(b))),
    [records?.staff],
  );
  const download = useDownload();

  return (
    <section>
      <p className="no-print text-sm">
        <Link to="/reports" className="text-gray-700 underline hover:text-black">
          ← Reports
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-semibold">{DAY_REPORT_TITLE}</h1>
      <p className="mt-1 text-sm text-gray-700">{model ? `${model.community} · ${model.period}` : formatDate(from)}</p>

      <div className="no-print mt-4 grid gap-3 sm:grid-cols-[16rem_16rem_max-content] sm:items-end">
        <DateField
          label="Day"
          value={day}
          onChange={(picked) => picked && setDay(picked)}
          isDayDisabled={isFutureDay}
          yearsBack={5}
        />
        <SelectInput
          label="Officer"
          value={officerId ?? ''}
          onChange={(event) => setOfficerId(event.target.value || null)}
          className="[&_select]:bg-white"
        >
          <option value="">{ALL_OFFICERS}</option>
          {officers.map((user) => (
            <option key={user.id} value={user.id}>
              {personName(user)}
            </option>
          ))}
        </SelectInput>
        <button
          type="button"
          className="min-h-11 rounded bg-black px-4 py-2 text-sm font-medium text-white hover:bg-gray-800 disabled:cursor-not-allowed disabled:bg-gray-500"
          disabled={!model || making}
          onClick={() => {
            if (!model) return;
            setMaking(true);
            void download(model).finally(() => setMaking(false));
          }}
        >
          {making ? 'Making PDF…' : 'Download PDF'}
        </button>
      </div>

      <RangeNote
        state={range.state}
        onRetry={range.retry}
        words={{
          loading: 'Loading this day’s reports…',
          offline: OFFLINE_DAY_NOT_ON_DEVICE,
          failed: 'This day’s reports could not be loaded. Showing what the device holds.',
        }}
      />

      {!model ? (
        <div className="mt-6 flex justify-center">
          <Spinner label="Loading the day" />
        </div>
      ) : (
        <DayPreview model={model} />
      )}
    </section>
  );
}

function DayPreview({ model }: { model: DayModel }) {
  return (
    <>
      <p className="mt-4 text-sm font-medium" aria-live="polite" data-testid="day-counts">
        {countsLine(model)}
      </p>
      {model.entries.length === 0 ? (
        <p className="mt-6 text-center text-gray-700">Nothing was logged on this day.</p>
      ) : (
        <ol
          aria-label="Entries of the day"
          className="mt-3 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white"
        >
          {model.entries.map((entry) => (
            <li key={`${entry.kind}:${entry.id}`} className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-3 p-3">
              <time dateTime={entry.at.toISOString()} className="font-mono text-sm font-semibold">
                {entry.time}
              </time>
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span
                    className={`rounded px-2 py-0.5 text-xs font-semibold ${entry.kind !== 'call' && entry.issues ? ISSUES_BADGE : KIND_BADGE[entry.kind]}`}
                  >
                    {ENTRY_KIND_LABELS[entry.kind]}
                  </span>
                  <span className="font-medium break-words">{entry.home}</span>
                </p>
                <p className="mt-1 text-sm text-gray-700">
                  {entry.officer}
                  {entrySummary(entry) && ` · ${entrySummary(entry)}`}
                </p>
                {entry.kind !== 'call' && (
                  <>
                    <p className="mt-1 text-sm whitespace-pre-line break-words">{entry.narrative}</p>
                    {entry.photos.length > 0 && <PhotoThumbs reportId={entry.id} photos={entry.photos} />}
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      {model.rounds.length > 0 && (
        <section aria-labelledby="day-rounds" className="mt-6">
          <h2 id="day-rounds" className="font-semibold">
            Tour rounds
          </h2>
          <ol className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
            {model.rounds.map((round) => (
              <li key={round.id} className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-3 p-3">
                <time dateTime={round.at.toISOString()} className="font-mono text-sm font-semibold">
                  {round.time}
                </time>
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${ROUND_STATUS_TONE[round.status]}`}>
                      {round.statusWords}
                    </span>
                    <span className="font-medium break-words">{round.tour}</span>
                  </p>
                  <p className="mt-1 text-sm text-gray-700">{roundSummary(round)}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>
      )}
      {model.alerts.length > 0 && (
        <section aria-labelledby="day-alerts" className="mt-6">
          <h2 id="day-alerts" className="font-semibold">
            Alerts
          </h2>
          <ol className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
            {model.alerts.map((alert) => (
              <li key={alert.id} className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-3 p-3">
                <time dateTime={alert.at.toISOString()} className="font-mono text-sm font-semibold">
                  {alert.time}
                </time>
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                      {alert.kind}
                    </span>
                    <span className="font-medium break-words">{alert.officer}</span>
                    <span className="text-sm text-gray-700">{alert.state}</span>
                  </p>
                  {alert.steps && <p className="mt-1 text-sm text-gray-700">{alert.steps}</p>}
                </div>
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}

/**
 * The photos as the report cards show them (the server's thumbnails with the
 * file token): seen here, the service worker keeps them, so the PDF has them
 * offline too. A photo still in the outbox says so.
 */
function PhotoThumbs({ reportId, photos }: { reportId: string; photos: readonly string[] }) {
  const file = useFileToken();
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label="Photos">
      {photos.map((name, index) => (
        <li key={name}>
          {isPendingFileName(name) ? (
            <span className="flex h-[60px] w-[80px] items-center justify-center rounded border border-dashed border-gray-400 bg-gray-100 p-1 text-center text-xs text-gray-700">
              Photo waiting to upload
            </span>
          ) : (
            <img
              // Until the first token is here, no URL: without one the server would refuse.
              src={file.settled ? withFileToken(reportPhotoUrl(reportId, name, PHOTO_THUMB), file.token) : undefined}
              alt={`Photo ${index + 1}`}
              loading="lazy"
              className="h-[60px] w-[80px] rounded border border-gray-200 object-cover"
            />
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Makes the PDF and hands it to the browser as a download. The photos are
 * loaded first (image cache, then the server with the file token; queued
 * ones from the outbox); jsPDF itself loads only now, on the first download.
 */
function useDownload(): (model: DayModel) => Promise<void> {
  const { db } = useSyncEngine();
  const file = useFileToken();
  const toast = useToast();
  return async (model) => {
    try {
      const photos = new Map<string, PdfPhoto | null>();
      const { drawDayReport, photoKey } = await import('./dayPdf.ts');
      const wanted = model.entries.flatMap((entry) =>
        entry.kind === 'call' ? [] : entry.photos.map((name) => ({ reportId: entry.id, name })),
      );
      // A few at a time, as a browser fetches images: a busy day has dozens of photos.
      const next = wanted[Symbol.iterator]();
      const worker = async () => {
        for (const { reportId, name } of next) {
          const blob = await reportPhotoThumb(db, reportId, name, file.token);
          photos.set(photoKey(reportId, name), blob ? await toPdfPhoto(blob) : null);
        }
      };
      await Promise.all(Array.from({ length: PHOTOS_AT_ONCE }, worker));
      const doc = drawDayReport(model, photos, new Date());
      saveBlob(doc.output('blob'), dayReportFileName(model));
    } catch (error) {
      console.error('The daily activity report failed:', error);
      toast({ title: 'Fail', description: 'The PDF could not be made.', variant: 'destructive' });
    }
  };
}

/** Photos loaded side by side for the PDF: the connections a browser opens to one server. */
const PHOTOS_AT_ONCE = 6;

/** The largest a thumbnail is drawn from (the server's thumbs are 400×300; queued photos are whole pictures). */
const MAX_SIDE = 400;

/** Any picture the browser reads, as a JPEG the PDF can hold; null when it cannot be read. */
async function toPdfPhoto(blob: Blob): Promise<PdfPhoto | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return null;
    // JPEG has no transparency: a white ground, as on paper.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (!jpeg) return null;
    return { data: new Uint8Array(await jpeg.arrayBuffer()), width: canvas.width, height: canvas.height };
  } catch {
    return null;
  }
}
