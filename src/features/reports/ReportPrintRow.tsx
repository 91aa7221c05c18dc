/**
 * One report of the printed list: a dense row for paper, so a month of
 * reports takes a few pages, not one a report. The incident time, type and
 * answer on the left; the facts, the narrative the card shows, when it was
 * written and where on the right. No buttons, and no photos (a single
 * report's Print has them): the row says how many there are. A row is never
 * cut by a page break.
 */
import type { ReportWithLinks } from '../../data/resources/reports.ts';
import { answerOf, everythingOkLine } from '../../domain/houseCheckAnswer.ts';
import { reportTypeLabel } from '../../domain/reportTypes.ts';
import { formatDateTime } from '../../ui/format.ts';
import { defaultNarrativeChoice, narrativeLabel, narrativeText, type NarrativeChoice } from './narrative.ts';
import { ANSWER_STYLE, loggedSentLine, photoCount, positionWords, reportFacts } from './reportFacts.ts';

export function ReportPrintRow({ item, picked }: { item: ReportWithLinks; picked: NarrativeChoice | undefined }) {
  const { report } = item;
  const choice = picked ?? defaultNarrativeChoice(report);
  // The incident time heads the row; the other facts follow on the right.
  const facts = reportFacts(item).filter(([label]) => label !== 'Incident time');
  const answer = everythingOkLine(report);
  const position = report.position ? positionWords(report.position) : null;
  const loggedSent = loggedSentLine(report);
  const photos = report.photos?.length ?? 0;
  const titleId = `print-report-${report.id}-title`;
  const footer = [
    `Created ${formatDateTime(report.created)}`,
    loggedSent,
    position ? `Position ${position.place} (${position.accuracy})` : 'No position recorded',
    photos > 0 ? photoCount(photos) : null,
  ].filter((part): part is string => part !== null);

  return (
    <article
      aria-labelledby={titleId}
      className="grid break-inside-avoid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 border-b border-gray-400 py-1 text-[8pt] leading-snug"
    >
      <div>
        <p className="font-semibold">{formatDateTime(report.incident_time)}</p>
        <h2 id={titleId} className="font-semibold">
          {reportTypeLabel(report.type)}
        </h2>
        {answer && (
          <p
            data-testid="everything-ok"
            className={`mt-0.5 w-fit rounded border px-1 ${ANSWER_STYLE[answerOf(report)]}`}
          >
            {answer}
          </p>
        )}
        {report._pending && <p className="mt-0.5 w-fit rounded border border-amber-900 px-1">Not yet sent</p>}
      </div>
      <div className="min-w-0">
        <dl className="flex flex-wrap gap-x-2.5">
          {facts.map(([label, value]) => (
            <div key={label} className="flex min-w-0 gap-1">
              <dt className="text-gray-600">{label}</dt>
              <dd className="font-medium break-words">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="whitespace-pre-wrap break-words" data-testid="narrative">
          <span className="text-gray-600">Narrative ({narrativeLabel(choice)}):</span> {narrativeText(report, choice)}
        </p>
        <p className="text-gray-600">{footer.join(' · ')}</p>
      </div>
    </article>
  );
}
