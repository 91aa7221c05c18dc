/**
 * Checkpoint tours (docs/product.md#checkpoint-tours): the checkpoints and
 * tours from the mirror, the rounds of the shift with the walks and scans
 * that answer them, and every write of the feature through the outbox, so
 * that a tour is walked in a dead zone from start to end and arrives once.
 *
 * Deleting a checkpoint or a tour is online only: the server refuses one
 * with history (a scanned checkpoint, a walked tour), and the person must
 * learn it at once, not from a parked entry later.
 */
import { pb } from '../../api/client.ts';
import type { CheckpointRecord, TourRecord, TourWalkRecord } from '../../api/records.ts';
import type { ScanMethod } from '../../domain/checkpointCode.ts';
import { pbDate } from '../../domain/pbDate.ts';
import type { CheckpointValues, TourValues } from '../../domain/tourSchemas.ts';
import type { ScheduledRound } from '../../domain/tourRounds.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import type { SignedInUser } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { ScmsDatabase } from '../mirror/db.ts';
import { byName, scansOfWalks, type Checkpoint, type CheckpointScan, type Tour, type TourWalk } from './tourBoards.ts';
import { newRecordId } from '../mirror/ids.ts';
import { removeServerRecords } from '../mirror/mirror.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import { enqueue } from '../sync/outbox.ts';

/** The community's checkpoints by name; undefined while the mirror is read. */
export function useCheckpoints(): Checkpoint[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['checkpoints'], async () => (await db.checkpoints.toArray()).sort(byName), []);
}

/** One walk with its tour, checkpoints and scans, for the walking screen. */
export interface WalkView {
  walk: TourWalk;
  /** Every walk of this round (two officers may walk it together), this one among them. */
  roundWalks: TourWalk[];
  tour: Tour | undefined;
  checkpoints: Checkpoint[];
  /** The scans of every walk of this round (two officers may walk it together). */
  scans: CheckpointScan[];
}

export function useWalk(walkId: string): WalkView | null | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['tours', 'checkpoints', 'tour_walks', 'checkpoint_scans'],
    async () => {
      const walk = await db.tour_walks.get(walkId);
      if (!walk) return null;
      const tour = await db.tours.get(walk.tour);
      const sameRound = await db.tour_walks.where('[tour+round_start]').equals([walk.tour, walk.round_start]).toArray();
      const scans = await scansOfWalks(db, sameRound);
      const checkpoints = (await db.checkpoints.bulkGet(tour?.checkpoints ?? [])).filter(
        (checkpoint): checkpoint is Checkpoint => !!checkpoint,
      );
      return {
        walk,
        roundWalks: sameRound,
        tour,
        checkpoints,
        scans: scans.sort((a, b) => a.scanned_at.localeCompare(b.scanned_at)),
      };
    },
    [walkId],
  );
}

// ---- writes (through the outbox) ------------------------------------------------

export async function queueCheckpoint(
  db: ScmsDatabase,
  user: SignedInUser,
  values: CheckpointValues,
  existing?: CheckpointRecord,
): Promise<string> {
  const body = {
    name: values.name.trim(),
    position: values.position,
    radius: values.radius,
    instructions: values.instructions.trim(),
    question: values.question.trim(),
  };
  const id = existing?.id ?? newRecordId();
  await enqueue(db, {
    userId: user.id,
    label: `${existing ? 'Edit' : 'Add'} checkpoint: ${body.name}`,
    ops: [
      existing
        ? { action: 'update', collection: 'checkpoints', id, body }
        : {
            action: 'create',
            collection: 'checkpoints',
            id,
            // The codes are the server's: the mirror shows none until it answered.
            body: { ...body, token: '', short_code: '', community: user.community, created_by: user.id },
          },
    ],
  });
  return id;
}

export async function queueTour(
  db: ScmsDatabase,
  user: SignedInUser,
  values: TourValues,
  existing?: TourRecord,
): Promise<string> {
  const body = { ...values, name: values.name.trim() };
  const id = existing?.id ?? newRecordId();
  await enqueue(db, {
    userId: user.id,
    label: `${existing ? 'Edit' : 'Add'} tour: ${body.name}`,
    ops: [
      existing
        ? { action: 'update', collection: 'tours', id, body }
        : {
            action: 'create',
            collection: 'tours',
            id,
            body: { ...body, community: user.community, created_by: user.id },
          },
    ],
  });
  return id;
}

/** Online only (see above); the server's refusal is thrown with its reason. */
export async function deleteCheckpoint(db: ScmsDatabase, checkpoint: CheckpointRecord): Promise<void> {
  await pb.collection('checkpoints').delete(checkpoint.id);
  await removeServerRecords(db, 'checkpoints', [checkpoint.id]);
}

export async function deleteTour(db: ScmsDatabase, tour: TourRecord): Promise<void> {
  await pb.collection('tours').delete(tour.id);
  await removeServerRecords(db, 'tours', [tour.id]);
}

/** Starts the officer's walk of a round; returns its id. */
export async function startWalk(
  db: ScmsDatabase,
  user: SignedInUser,
  tour: TourRecord,
  round: ScheduledRound,
  now: Date = new Date(),
): Promise<string> {
  const id = newRecordId();
  await enqueue(
    db,
    {
      userId: user.id,
      label: `Start tour: ${tour.name}`,
      ops: [
        {
          action: 'create',
          collection: 'tour_walks',
          id,
          body: {
            community: user.community,
            tour: tour.id,
            officer: user.id,
            round_start: pbDate(new Date(round.startsAt)),
            started_at: pbDate(now),
            ended_at: '',
            end_reason: '',
          },
        },
      ],
    },
    now,
  );
  return id;
}

export interface NewScan {
  checkpoint: CheckpointRecord;
  method: ScanMethod;
  /** What the camera read, or what the officer typed: the server checks it against the checkpoint. */
  code: string;
  position: ReportPosition | null;
  answer: 'yes' | 'no' | '';
  note: string;
}

export async function queueScan(
  db: ScmsDatabase,
  user: SignedInUser,
  walk: TourWalkRecord,
  scan: NewScan,
  now: Date = new Date(),
): Promise<string> {
  const id = newRecordId();
  await enqueue(
    db,
    {
      userId: user.id,
      label: `Scan: ${scan.checkpoint.name}`,
      ops: [
        {
          action: 'create',
          collection: 'checkpoint_scans',
          id,
          body: {
            community: user.community,
            walk: walk.id,
            checkpoint: scan.checkpoint.id,
            officer: user.id,
            scanned_at: pbDate(now),
            method: scan.method,
            code: scan.code,
            position: scan.position,
            answer: scan.answer,
            note: scan.note.trim(),
          },
        },
      ],
    },
    now,
  );
  return id;
}

export async function endWalk(
  db: ScmsDatabase,
  user: SignedInUser,
  walk: TourWalkRecord,
  tourName: string,
  reason: string,
  now: Date = new Date(),
): Promise<void> {
  await enqueue(
    db,
    {
      userId: user.id,
      label: `End tour: ${tourName}`,
      ops: [
        {
          action: 'update',
          collection: 'tour_walks',
          id: walk.id,
          body: { ended_at: pbDate(now), end_reason: reason.trim() },
        },
      ],
    },
    now,
  );
}
