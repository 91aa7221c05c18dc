/**
 * Report types (docs/product.md#decisions for the spelling): wire value (spelling kept, e.g. vehicle_tailgaite),
 * the original numeric id, and the label shown to people.
 */
export const REPORT_TYPES = [
  { value: 'accident', id: 1, label: 'Accident' },
  { value: 'assist_ems', id: 2, label: 'Assist EMS' },
  { value: 'damaged_mailbox', id: 3, label: 'Damaged mailbox' },
  { value: 'ems_response', id: 4, label: 'EMS response' },
  { value: 'false_alarm', id: 5, label: 'False alarm' },
  { value: 'garage_door_light_check', id: 12, label: 'Garage door light check' },
  { value: 'house_check', id: 14, label: 'House check' },
  { value: 'loud_noise', id: 6, label: 'Loud noise' },
  { value: 'open_garage_door', id: 7, label: 'Open garage door' },
  { value: 'ticket_issued', id: 13, label: 'Ticket issued' },
  { value: 'unauthorized_entry', id: 8, label: 'Unauthorized entry' },
  { value: 'vehicle_damage', id: 9, label: 'Vehicle damage' },
  { value: 'vehicle_tailgaite', id: 10, label: 'Vehicle tailgate' },
  { value: 'youths_fishing', id: 11, label: 'Youths fishing' },
] as const;

export type ReportType = (typeof REPORT_TYPES)[number]['value'];

export const REPORT_TYPE_VALUES = REPORT_TYPES.map((t) => t.value) as [ReportType, ...ReportType[]];

export function reportTypeLabel(value: string): string {
  return REPORT_TYPES.find((t) => t.value === value)?.label ?? value;
}

/** Weather values; clear is the default. */
export const WEATHER_VALUES = ['clear', 'sunny', 'cloudy', 'rainy'] as const;
export type Weather = (typeof WEATHER_VALUES)[number];
export const DEFAULT_WEATHER: Weather = 'clear';
