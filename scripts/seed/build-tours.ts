/**
 * The demo's checkpoint tours: four checkpoints around the grounds (their
 * QR and short codes are made by the server when the seed creates them), a
 * night patrol that walks them every two hours from 20:00 to 06:00, and the
 * last nights' rounds walked by the officer: most in full and on time, one
 * a night ended early with a reason (the pool gate left).
 */
import { pbDate } from '../../src/domain/pbDate.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { roundsOfDay } from '../../src/domain/tourRounds.ts';
import type { DemoData } from './demo-data.ts';
import { demoId } from './demo-ids.ts';

/** Nights of patrol history before the seed: the Tours screen's past days, the daily report and the dashboard show them. */
const HISTORY_NIGHTS = 7;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Around the gatehouse of a community in Jupiter, Florida. */
const ORIGIN = { latitude: 26.9342, longitude: -80.0942 };

const CHECKPOINTS = [
  {
    key: 'front-gate',
    name: 'Front gate',
    north: 0,
    east: 0,
    instructions: 'Check the barrier arm closes.',
    question: 'Is the barrier working?',
  },
  {
    key: 'pool',
    name: 'Pool gate',
    north: 180,
    east: 120,
    instructions: 'Check the pool gate is locked.',
    question: 'Is the gate locked?',
  },
  {
    key: 'clubhouse',
    name: 'Clubhouse doors',
    north: 260,
    east: -40,
    instructions: 'Try both doors; lights off after 23:00.',
    question: '',
  },
  {
    key: 'yard',
    name: 'Maintenance yard',
    north: 420,
    east: 300,
    instructions: '',
    question: 'Is the yard padlocked?',
  },
] as const;

/** Degrees of latitude and longitude per metre at the origin. */
const PER_METRE = { latitude: 1 / 111_195, longitude: 1 / (111_195 * Math.cos((ORIGIN.latitude * Math.PI) / 180)) };

export function buildTours(
  key: string,
  communityId: string,
  directorId: string,
  officerId: string,
  now: Date,
  data: DemoData,
): void {
  const ids = CHECKPOINTS.map((checkpoint) => demoId(`${key}:checkpoint:${checkpoint.key}`));
  CHECKPOINTS.forEach((checkpoint, i) => {
    data.checkpoints.push({
      id: ids[i]!,
      community: communityId,
      name: checkpoint.name,
      position: {
        latitude: Number((ORIGIN.latitude + checkpoint.north * PER_METRE.latitude).toFixed(6)),
        longitude: Number((ORIGIN.longitude + checkpoint.east * PER_METRE.longitude).toFixed(6)),
        accuracy: 6,
      },
      radius: 40,
      instructions: checkpoint.instructions,
      question: checkpoint.question,
      created_by: directorId,
    });
  });
  const tourId = demoId(`${key}:tour:night`);
  data.tours.push({
    id: tourId,
    community: communityId,
    name: 'Night patrol',
    checkpoints: ids,
    start: '20:00',
    end: '06:00',
    every_minutes: 120,
    round_minutes: 30,
    ordered: true,
    active: true,
    created_by: directorId,
  });
  // The walks and scans of the nights before (round times in the default zone: the demo saves no call settings).
  const schedule = { start: '20:00', end: '06:00', everyMinutes: 120, roundMinutes: 30 };
  for (let night = HISTORY_NIGHTS; night >= 1; night--) {
    const rounds = roundsOfDay(schedule, DEFAULT_CALL_SETTINGS.timeZone, now.getTime() - night * DAY);
    rounds.forEach((round, r) => {
      if (round.dueBy + 30 * MINUTE > now.getTime()) return;
      const walkId = demoId(`${key}:walk:${night}:${r}`);
      // The third round of each night stops short of the pool gate.
      const short = r === 2;
      const walked = short ? [0, 2, 3] : [0, 1, 2, 3];
      const startedAt = round.startsAt + 2 * MINUTE;
      const endedAt = startedAt + (walked.length * 5 + 2) * MINUTE;
      data.tour_walks.push({
        id: walkId,
        community: communityId,
        tour: tourId,
        officer: officerId,
        round_start: pbDate(new Date(round.startsAt)),
        started_at: pbDate(new Date(startedAt)),
        ended_at: pbDate(new Date(endedAt)),
        end_reason: short ? 'Pool area closed for resurfacing, gate taped off' : '',
      });
      walked.forEach((c, i) => {
        const checkpoint = CHECKPOINTS[c]!;
        data.checkpoint_scans.push({
          id: demoId(`${key}:scan:${night}:${r}:${c}`),
          community: communityId,
          walk: walkId,
          checkpoint: ids[c]!,
          officer: officerId,
          scanned_at: pbDate(new Date(startedAt + (i + 1) * 5 * MINUTE)),
          method: i === 1 ? 'code' : 'camera',
          position: {
            latitude: Number((ORIGIN.latitude + checkpoint.north * PER_METRE.latitude).toFixed(6)),
            longitude: Number((ORIGIN.longitude + checkpoint.east * PER_METRE.longitude).toFixed(6)),
            accuracy: 9,
          },
          answer: checkpoint.question ? 'yes' : '',
          note: '',
        });
      });
    });
  }
}
