/**
 * One report of the list (docs/product.md#the-reports-list): the incident's facts (a house check's
 * answer to 'Is everything ok?' beside its type), the narrative
 * with its Original / Ai assist selector, the photos, when it was written
 * (and when it reached the server, when that was later), where
 * it was made, and a "Not yet sent" marker while it waits in the outbox.
 *
 * The narrative version a user picks is kept by the list, not the card: a
 * virtualised card is unmounted when it scrolls away, and the printed copy
 * of a card is another instance; both must show the same version.
 */
import type { ReportWithLinks } from '../../data/resources/reports.ts';
import { answerOf, everythingOkLine } from '../../domain/houseCheckAnswer.ts';
import { reportTypeLabel } from '../../domain/reportTypes.ts';
import { formatCreated, formatDateTime } from '../../ui/format.ts';
import {
  defaultNarrativeChoice,
  NARRATIVE_CHOICES,
  narrativeLabel,
  narrativeText,
  type NarrativeChoice,
} from './narrative.ts';
import { ANSWER_STYLE, loggedSentLine, positionWords, reportFacts } from './reportFacts.ts';
import { ReportPhotos } from './ReportPhotos.tsx';

export interface ReportCardProps {
  item: ReportWithLinks;
  now: Date;
  onPrint: () => void;
  /** Undefined until the user picks: the default follows the report, so an AI narrative that arrives with a later sync is shown without a tap. */
  picked: NarrativeChoice | undefined;
  onPick: (choice: NarrativeChoice) => void;
  /** Keeps element ids unique when a second copy of the card is drawn (the print list). */
  idPrefix?: string;
}

export function ReportCard({ item, now, onPrint, picked, onPick, idPrefix = '' }: ReportCardProps) {
  const { report } = item;
  const choice = picked ?? defaultNarrativeChoice(report);
  const facts = reportFacts(item);
  // A report kept offline reaches the server later: both times, when they differ.
  const loggedSent = loggedSentLine(report);
  const position = report.position ? positionWords(report.position) : null;
  const chosenLabel = narrativeLabel(choice);
  const titleId = `${idPrefix}report-${report.id}-title`;
  // A house check's answer, beside the type: a failed check stands out in the list.
  const answer = everythingOkLine(report);

  return (
    <article
      aria-labelledby={titleId}
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm print:break-inside-avoid print:rounded-none print:border-x-0 print:border-t-0 print:border-b-gray-400 print:px-0 print:shadow-none"
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        {/* The type heads the card; the other facts follow in the list below. */}
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={titleId} className="text-lg font-semibold">
            {reportTypeLabel(report.type)}
          </h2>
          {answer && (
            <span
              data-testid="everything-ok"
              className={`rounded-full px-2 py-0.5 text-xs font-semibold print:border ${ANSWER_STYLE[answerOf(report)]}`}
            >
              {answer}
            </span>
          )}
        </div>
        <div className="flex items-center gap-2">
          {report._pending && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 print:border print:border-amber-900">
              Not yet sent
            </span>
          )}
          <button
            type="button"
            onClick={onPrint}
            className="no-print rounded border border-gray-300 px-3 py-1 text-sm"
            aria-label={`Print ${reportTypeLabel(report.type)} report of ${formatDateTime(report.incident_time)}`}
          >
            Print
          </button>
        </div>
      </header>

      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 print:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-gray-600">{label}</dt>
            <dd className="font-medium break-words">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-medium">
            Narrative <span className="hidden print:inline">({chosenLabel})</span>
          </h3>
          <div
            role="group"
            aria-label="Narrative version"
            className="no-print inline-flex rounded border border-gray-300 text-sm"
          >
            {NARRATIVE_CHOICES.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={choice === option.value}
                onClick={() => onPick(option.value)}
                className={`px-3 py-1 first:rounded-l last:rounded-r ${choice === option.value ? 'bg-black text-white' : 'bg-white text-gray-800'}`}
              >
                {option.label}
              </button>
            ))}
          </div>
        </div>
        {/* Text, never HTML: a narrative is whatever an officer (or a model) typed. */}
        <p className="mt-1 text-sm whitespace-pre-wrap break-words text-gray-900" data-testid="narrative">
          {narrativeText(report, choice)}
        </p>
      </div>

      <ReportPhotos reportId={report.id} photos={report.photos ?? []} />

      {/* Paper outlives "3 minutes ago": a printout always gives the date and time. */}
      <p className="mt-3 text-xs text-gray-600">
        <span className="print:hidden">Created {formatCreated(report.created, now)}</span>
        <span className="hidden print:inline">Created {formatDateTime(report.created)}</span>
        {loggedSent && <span data-testid="logged-sent"> · {loggedSent}</span>}
      </p>
      {/* Where it was made: a map link, or a plain word that there is none (not an error). */}
      <p className="mt-1 text-xs text-gray-600" data-testid="report-position">
        {position ? (
          <>
            Position:{' '}
            <a
              href={position.url}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-gray-900 underline"
            >
              {position.place}
              <span className="sr-only"> on the map (opens in a new tab)</span>
            </a>{' '}
            ({position.accuracy})
          </>
        ) : (
          'No position recorded'
        )}
      </p>
    </article>
  );
}
