/**
 * The create-report form's values, defaults and what it hands to the
 * outbox. Validation is reportSchema's (src/domain/schemas.ts); this file
 * only turns valid values into a report.
 */
import type { NewReport } from '../../data/resources/reports.ts';
import { DEFAULT_WEATHER, type ReportType } from '../../domain/reportTypes.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import { parseHourMinute, type ReportValues } from '../../domain/schemas.ts';

/** What the fields hold before validation: no type chosen, no date picked. */
export type ReportFormInput = Omit<ReportValues, 'type' | 'incident_date'> & {
  type: ReportType | '';
  incident_date: Date | undefined;
};

export function reportFormDefaults(): ReportFormInput {
  return {
    type: '',
    weather: DEFAULT_WEATHER,
    incident_date: undefined,
    hour: '',
    minute: '',
    narative: '',
    ai_generated_narative: '',
    house: '',
    resident: '',
    injury: false,
    ems_pbso: false,
  };
}

/** The incident's moment in local time: the picked day at the typed hour and minute. */
export function incidentTime(date: Date, hour: string, minute: string): Date {
  const time = parseHourMinute(hour, minute);
  if (!time) throw new Error('Incorrect hour and/or minute');
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), time.hour, time.minute);
}

export function toNewReport(
  values: ReportValues,
  links: { residentId: string; phoneNumber: string },
  photos: readonly Blob[],
  position: ReportPosition | null = null,
): NewReport {
  return {
    type: values.type,
    weather: values.weather,
    incidentTime: incidentTime(values.incident_date, values.hour, values.minute),
    narative: values.narative.trim(),
    aiGeneratedNarative: values.ai_generated_narative.trim(),
    houseId: values.house,
    residentId: links.residentId,
    phoneNumber: links.phoneNumber,
    injury: values.injury,
    emsPbso: values.ems_pbso,
    photos: [...photos],
    position,
  };
}
