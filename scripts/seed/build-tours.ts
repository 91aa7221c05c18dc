/**
 * The demo's checkpoint tours: four checkpoints around the grounds (their
 * QR and short codes are made by the server when the seed creates them)
 * and a night patrol that walks them every two hours from 20:00 to 06:00.
 */
import type { DemoData } from './demo-data.ts';
import { demoId } from './demo-ids.ts';

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

export function buildTours(key: string, communityId: string, directorId: string, data: DemoData): void {
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
  data.tours.push({
    id: demoId(`${key}:tour:night`),
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
}
