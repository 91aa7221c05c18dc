/**
 * Reports (docs/product.md#reports): the list by incident-time range from
 * the mirror's search index (an older range is pulled on demand:
 * historyRange.ts), Ai Assist, and
 * creating a report, one outbox entry (the mirror shows it at once; replay
 * sends it later; docs/architecture.md#writing-the-outbox).
 */
import { useMemo } from 'react';
import { pb } from '../../api/client.ts';
import type { HouseRecord, ResidentRecord, UserRecord } from '../../api/records.ts';
import { hasIssues } from '../../domain/houseCheckAnswer.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import type { SignedInUser } from '../auth.ts';
import { useSearchIndex } from '../hooks.ts';
import type { MirrorRow, OutboxOperation, ScmsDatabase } from '../mirror/db.ts';
import { newRecordId } from '../mirror/ids.ts';
import { searchIndexOf, type MirrorSearchIndex } from '../mirror/searchIndex.ts';
import { enqueue } from '../sync/outbox.ts';
import { pbDate } from '../sync/pull.ts';

export interface NewReport {
  type: string;
  weather: string;
  incidentTime: Date;
  narative: string;
  aiGeneratedNarative?: string;
  houseId?: string;
  residentId?: string;
  phoneNumber?: string;
  injury?: boolean;
  emsPbso?: boolean;
  photos?: Blob[];
  /** The device's position; null or left out when there is none. */
  position?: ReportPosition | null;
}

/** `loggedAt`: the device time of the outbox entry, kept on the report beside the server's `created`. */
export function reportOperation(user: SignedInUser, report: NewReport, loggedAt: Date): OutboxOperation {
  return {
    action: 'create',
    collection: 'reports',
    id: newRecordId(),
    body: {
      narative: report.narative,
      ai_generated_narative: report.aiGeneratedNarative ?? '',
      type: report.type,
      weather: report.weather,
      incident_time: pbDate(report.incidentTime),
      phone_number: report.phoneNumber ?? '',
      injury: report.injury ?? false,
      ems_pbso: report.emsPbso ?? false,
      community: user.community,
      house: report.houseId ?? '',
      resident: report.residentId ?? '',
      // The creator is always the signed-in user (the server enforces it too).
      created_by: user.id,
      position: report.position ?? null,
      logged_at: pbDate(loggedAt),
    },
    files: report.photos && report.photos.length > 0 ? { photos: report.photos } : undefined,
  };
}

/** Queues a report; returns its id. */
export async function queueReport(
  db: ScmsDatabase,
  user: SignedInUser,
  report: NewReport,
  label = 'Report',
  now: Date = new Date(),
): Promise<string> {
  const op = reportOperation(user, report, now);
  await enqueue(db, { userId: user.id, label, ops: [op] }, now);
  return op.id;
}

export interface ReportQuery {
  from: Date;
  to: Date;
  types?: readonly string[];
  sort?: 'newest' | 'oldest';
  search?: string;
  /** Only house checks answered No to 'Is everything ok?'. */
  withIssues?: boolean;
}

export interface ReportWithLinks {
  report: MirrorRow<'reports'>;
  house?: HouseRecord;
  resident?: ResidentRecord;
  officer?: UserRecord;
}

/** Reports by incident-time range, types, answer and search (docs/product.md#the-reports-list), sorted by creation: from the index, no reads. */
export function searchReports(index: MirrorSearchIndex, query: ReportQuery): ReportWithLinks[] {
  const { from, to, types, sort = 'newest', search = '', withIssues = false } = query;
  const [low, high] = [pbDate(from), pbDate(to)];
  const typeSet = types && types.length > 0 ? new Set(types) : null;
  const found = index.reports.search(search, {
    key: `${low}|${high}|${[...(typeSet ?? [])].join(',')}|${withIssues ? 'issues' : ''}`,
    includes: ({ report }) =>
      report.incident_time >= low &&
      report.incident_time <= high &&
      (!typeSet || typeSet.has(report.type)) &&
      (!withIssues || hasIssues(report)),
  });
  return sort === 'oldest' ? found : [...found].reverse();
}

export async function queryReports(db: ScmsDatabase, query: ReportQuery): Promise<ReportWithLinks[]> {
  const index = searchIndexOf(db);
  await index.ready('reports');
  return searchReports(index, query);
}

export function useReports(query: ReportQuery): ReportWithLinks[] | undefined {
  const { index, version } = useSearchIndex('reports');
  const { from, to, types, sort, search, withIssues } = query;
  // Dates and lists are compared by value, so a new array each render does not search again.
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const typeList = (types ?? []).join(',');
  return useMemo(
    () =>
      version < 0
        ? undefined
        : searchReports(index, {
            from: new Date(fromMs),
            to: new Date(toMs),
            types: typeList ? typeList.split(',') : [],
            sort,
            search,
            withIssues,
          }),
    [index, version, fromMs, toMs, typeList, sort, search, withIssues],
  );
}

export type AiSource = 'offline-editor' | 'model';

/** Ai Assist (docs/product.md#ai-assist): the server rewrites the original narrative. */
export async function requestAiAssist(userInput: string): Promise<{ text: string; source: AiSource }> {
  const response = await pb.send<{ data?: unknown; source?: unknown }>('/api/scms/ai-assist', {
    method: 'POST',
    body: { user_input: userInput },
  });
  return {
    text: typeof response.data === 'string' ? response.data : '',
    // Without a configured model the server's built-in editor answers; the form says so.
    source: response.source === 'offline-editor' ? 'offline-editor' : 'model',
  };
}
