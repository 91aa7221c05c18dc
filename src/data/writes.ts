/**
 * The offline-capable writes of the screens (DESIGN.md), each one outbox
 * entry: create a report, log a house check (report + last-checked date in
 * one transactional batch), add or update a home with its residents and
 * phones, delete a home. The mirror shows the result at once; replay sends
 * it later.
 */
import type { HouseRecord, PhoneRecord, ResidentRecord } from '../api/records.ts';
import { houseCheckNarrative } from '../domain/houseCheck.ts';
import { DEFAULT_WEATHER } from '../domain/reportTypes.ts';
import type { ReportPosition } from '../domain/whereAndWhen.ts';
import type { OutboxOperation, ScmsDatabase } from './db.ts';
import { newRecordId } from './ids.ts';
import { enqueue } from './outbox.ts';
import { pbDate } from './pull.ts';

export interface SignedInUser {
  id: string;
  community: string;
}

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
  /** The device's position (issue 16); null or left out when there is none. */
  position?: ReportPosition | null;
}

/** `loggedAt`: the device time of the outbox entry, kept on the report beside the server's `created` (issue 16). */
function reportOperation(user: SignedInUser, report: NewReport, loggedAt: Date): OutboxOperation {
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

/** The first resident of a home (spec §7: the report's resident), oldest first. */
export async function firstResident(db: ScmsDatabase, houseId: string): Promise<ResidentRecord | undefined> {
  const residents = await db.residents.where('house').equals(houseId).toArray();
  return residents.sort((a, b) => a.created.localeCompare(b.created))[0];
}

/**
 * Logs a house check (spec §4, §7): a house_check report and the home's
 * last-checked date, sent together so neither lands without the other.
 */
export async function queueHouseCheck(
  db: ScmsDatabase,
  user: SignedInUser,
  house: Pick<HouseRecord, 'id' | 'address'>,
  answer: { everythingOk: boolean; remark?: string; position?: ReportPosition | null },
  now: Date = new Date(),
): Promise<string> {
  const resident = await firstResident(db, house.id);
  const report = reportOperation(
    user,
    {
      type: 'house_check',
      weather: DEFAULT_WEATHER,
      incidentTime: now,
      narative: houseCheckNarrative(answer.everythingOk, answer.remark),
      houseId: house.id,
      residentId: resident?.id ?? '',
      position: answer.position,
    },
    now,
  );
  const houseUpdate: OutboxOperation = {
    action: 'update',
    collection: 'houses',
    id: house.id,
    body: { house_check_last_date: pbDate(now) },
  };
  await enqueue(db, { userId: user.id, label: `House check: ${house.address}`, ops: [report, houseUpdate] }, now);
  return report.id;
}

export interface HomeForm {
  house: Partial<Omit<HouseRecord, 'id' | 'created' | 'updated' | 'community' | 'image' | 'pending_call_concerns_ids'>>;
  /** With `id`: a saved one to update; without: a new one. */
  residents?: Array<Pick<ResidentRecord, 'first_name' | 'last_name' | 'owner'> & { id?: string }>;
  phones?: Array<Pick<PhoneRecord, 'phone_number' | 'primary' | 'type' | 'do_not_call'> & { id?: string }>;
  /** Saved residents and phones of the home the user removed. */
  removed?: { residents?: readonly string[]; phones?: readonly string[] };
  image?: Blob;
}

/**
 * Adds a home, or updates one (houseId given), with its residents and
 * phones, as one entry sent as one batch so they land together (spec §4:
 * residents only when both names are filled, phones only when a number is;
 * a saved one is updated, a new one created, a removed one deleted).
 * Returns the home's id.
 */
export async function queueSaveHome(
  db: ScmsDatabase,
  user: SignedInUser,
  form: HomeForm,
  houseId?: string,
): Promise<string> {
  const id = houseId ?? newRecordId();
  const ops: OutboxOperation[] = [
    houseId
      ? { action: 'update', collection: 'houses', id, body: { ...form.house } }
      : { action: 'create', collection: 'houses', id, body: { ...form.house, community: user.community } },
  ];
  if (form.image) ops[0]!.files = { image: [form.image] };
  const person = (
    collection: 'residents' | 'phones',
    { id: saved, ...fields }: { id?: string } & Record<string, unknown>,
  ): OutboxOperation =>
    saved
      ? { action: 'update', collection, id: saved, body: { ...fields, house: id } }
      : { action: 'create', collection, id: newRecordId(), body: { ...fields, house: id } };
  for (const resident of form.residents ?? []) {
    if (resident.first_name.trim() && resident.last_name.trim()) ops.push(person('residents', resident));
  }
  for (const phone of form.phones ?? []) {
    if (phone.phone_number.trim()) ops.push(person('phones', phone));
  }
  if (houseId) {
    for (const removed of form.removed?.residents ?? [])
      ops.push({ action: 'delete', collection: 'residents', id: removed, body: {} });
    for (const removed of form.removed?.phones ?? [])
      ops.push({ action: 'delete', collection: 'phones', id: removed, body: {} });
  }
  const address = form.house.address ?? (await db.houses.get(id))?.address ?? '';
  await enqueue(db, { userId: user.id, label: `${houseId ? 'Update home' : 'Add home'}: ${address}`, ops });
  return id;
}

/**
 * Reports the mirror holds for a home. A home with reports cannot be
 * deleted (the reports keep their house; the server refuses too), so the
 * screen can say so at once; the mirror may hold only recent reports, so
 * 0 here still leaves the last word to the server.
 */
export async function homeReportCount(db: ScmsDatabase, houseId: string): Promise<number> {
  return db.reports.where('house').equals(houseId).count();
}

/**
 * Deletes a home. The mirror hides it at once; the server removes its
 * residents and phones with it (cascade), or refuses a home with reports,
 * and the entry is then parked with the server's message.
 */
export async function queueDeleteHome(
  db: ScmsDatabase,
  user: SignedInUser,
  house: Pick<HouseRecord, 'id' | 'address'>,
): Promise<void> {
  await enqueue(db, {
    userId: user.id,
    label: `Delete home: ${house.address}`,
    ops: [{ action: 'delete', collection: 'houses', id: house.id, body: {} }],
  });
}
