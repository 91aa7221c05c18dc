/**
 * The community's call settings from the mirror, for the call
 * sheet's quiet-hours question, the directors' form and the community's
 * time zone (tours, reports). Its own module, so it loads with them and not
 * with the Homes screen.
 */
import type { CallSettingsRecord } from '../../api/records.ts';
import { DEFAULT_CALL_SETTINGS, type CallSettings } from '../../domain/quietHours.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { ScmsDatabase } from '../mirror/db.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

export interface CommunityCallSettings {
  settings: CallSettings;
  /** The saved record; null while the community has the defaults. */
  record: CallSettingsRecord | null;
}

/** The community's call settings in the mirror: what a director saved, or the defaults (as the server reads them). */
export async function readCallSettings(
  db: ScmsDatabase,
  communityId: string | undefined,
): Promise<CommunityCallSettings> {
  const record = communityId ? await db.call_settings.where('community').equals(communityId).first() : undefined;
  if (!record) return { settings: DEFAULT_CALL_SETTINGS, record: null };
  return {
    record,
    settings: {
      retries: record.retries,
      retryMinutes: record.retry_minutes || DEFAULT_CALL_SETTINGS.retryMinutes,
      textFallback: record.text_fallback,
      quietStart: record.quiet_start || DEFAULT_CALL_SETTINGS.quietStart,
      quietEnd: record.quiet_end || DEFAULT_CALL_SETTINGS.quietEnd,
      timeZone: record.time_zone || DEFAULT_CALL_SETTINGS.timeZone,
    },
  };
}

/** The community's call settings from the mirror, kept current. */
export function useCallSettings(communityId: string | undefined): CommunityCallSettings | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['call_settings'], () => readCallSettings(db, communityId), [communityId]);
}
