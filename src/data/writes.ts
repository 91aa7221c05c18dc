/**
 * The offline-capable writes of the screens (docs/architecture.md#writing-the-outbox), each one outbox
 * entry: create a report, log a house check (report + last-checked date in
 * one transactional batch), add or update a home with its residents and
 * phones, delete a home. The mirror shows the result at once; replay sends
 * it later.
 */
import type { HouseRecord, PhoneRecord, ResidentRecord } from '../api/records.ts';
import { houseCheckNarrative } from '../domain/houseCheck.ts';
import { everythingOkOf } from '../domain/houseCheckAnswer.ts';
import { DEFAULT_WEATHER } from '../domain/reportTypes.ts';
import type { ReportPosition } from '../domain/whereAndWhen.ts';
import type { OutboxOperation, ScmsDatabase } from './mirror/db.ts';
import { newRecordId } from './mirror/ids.ts';
import { enqueue } from './sync/outbox.ts';
import { pbDate } from './sync/pull.ts';
import { changeOf, deleteOf } from './sync/conflicts.ts';

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
  /** The device's position; null or left out when there is none. */
  position?: ReportPosition | null;
}

/** `loggedAt`: the device time of the outbox entry, kept on the report beside the server's `created`. */
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

/** The first resident of a home (the report's resident), oldest first. */
export async function firstResident(db: ScmsDatabase, houseId: string): Promise<ResidentRecord | undefined> {
  const residents = await db.residents.where('house').equals(houseId).toArray();
  return residents.sort((a, b) => a.created.localeCompare(b.created))[0];
}

/**
 * Logs a house check (docs/product.md#house-checks): a house_check report and the home's
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
  // The answer itself, beside the narrative (docs/product.md#house-checks): the card, the lists and the figures read this.
  report.body.everything_ok = everythingOkOf(answer.everythingOk);
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
  /** With `id`: a saved one to update (only the fields the person changed need be given); without: a new one. */
  residents?: Array<Partial<Pick<ResidentRecord, 'first_name' | 'last_name' | 'owner'>> & { id?: string }>;
  phones?: Array<Partial<Pick<PhoneRecord, 'phone_number' | 'primary' | 'type' | 'do_not_call'>> & { id?: string }>;
  /** Saved residents and phones of the home the user removed. */
  removed?: { residents?: readonly string[]; phones?: readonly string[] };
  /** A new photo; `null` takes the home's photo away. */
  image?: Blob | null;
}

/** A home as the person saw it when they started editing: the base of every change they make to it. */
export interface HomeSnapshot {
  house: HouseRecord;
  residents: readonly ResidentRecord[];
  phones: readonly PhoneRecord[];
}

async function mirrorSnapshot(db: ScmsDatabase, houseId: string): Promise<HomeSnapshot | undefined> {
  const house = await db.houses.get(houseId);
  if (!house) return undefined;
  const [residents, phones] = await Promise.all([
    db.residents.where('house').equals(houseId).toArray(),
    db.phones.where('house').equals(houseId).toArray(),
  ]);
  return { house, residents, phones };
}

/**
 * Adds a home, or updates one (houseId given), with its residents and
 * phones, as one entry sent as one batch so they land together (docs/product.md#the-home-form:
 * residents only when both names are filled, phones only when a number is;
 * a saved one is updated, a new one created, a removed one deleted).
 *
 * An update sends only what changed against `started` (the home as the
 * person saw it when they opened the form; the mirror's copy when not
 * given), with those values as its base, so the server merges it with other
 * people's changes field by field and refuses it when someone changed the
 * same field since (src/data/sync/conflicts.ts). Nothing changed: nothing queued.
 * Returns the home's id.
 */
export async function queueSaveHome(
  db: ScmsDatabase,
  user: SignedInUser,
  form: HomeForm,
  houseId?: string,
  started?: HomeSnapshot,
): Promise<string> {
  const id = houseId ?? newRecordId();
  const snapshot = houseId ? (started ?? (await mirrorSnapshot(db, houseId))) : undefined;
  const ops: OutboxOperation[] = [];
  if (!houseId) {
    ops.push({ action: 'create', collection: 'houses', id, body: { ...form.house, community: user.community } });
  } else {
    const change = changeOf('houses', id, form.house, snapshot?.house);
    if (change || form.image !== undefined)
      ops.push(change ?? { action: 'update', collection: 'houses', id, body: {}, base: {} });
  }
  if (form.image) ops[0]!.files = { image: [form.image] };
  // A file field is emptied by an empty name, as the server stores a home without a photo; the photo is not among the fields whose base is checked.
  else if (form.image === null && houseId) ops[0]!.body = { ...ops[0]!.body, image: '' };
  const person = (
    collection: 'residents' | 'phones',
    { id: saved, ...fields }: { id?: string } & Record<string, unknown>,
    savedRows: ReadonlyArray<ResidentRecord | PhoneRecord> = [],
  ): OutboxOperation | null =>
    saved
      ? changeOf(
          collection,
          saved,
          fields,
          savedRows.find((row) => row.id === saved),
        )
      : { action: 'create', collection, id: newRecordId(), body: { ...fields, house: id } };
  const ready = (op: OutboxOperation | null) => op && ops.push(op);
  for (const resident of form.residents ?? []) {
    if (resident.id || (resident.first_name?.trim() && resident.last_name?.trim()))
      ready(person('residents', resident, snapshot?.residents));
  }
  for (const phone of form.phones ?? []) {
    if (phone.id || phone.phone_number?.trim()) ready(person('phones', phone, snapshot?.phones));
  }
  if (houseId) {
    for (const removed of form.removed?.residents ?? [])
      ops.push(
        deleteOf(
          'residents',
          removed,
          snapshot?.residents.find((row) => row.id === removed),
        ),
      );
    for (const removed of form.removed?.phones ?? [])
      ops.push(
        deleteOf(
          'phones',
          removed,
          snapshot?.phones.find((row) => row.id === removed),
        ),
      );
  }
  if (ops.length === 0) return id;
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
    ops: [deleteOf('houses', house.id, await db.houses.get(house.id))],
  });
}
