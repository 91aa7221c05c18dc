/**
 * The validation schemas of checkpoint tours, for their forms and (through
 * recordRules.ts) the server: beside schemas.ts rather than in it, so the
 * screens that never show a tour (Homes) do not carry them.
 */
import { z } from 'zod';
import { clockTime, LIMITS, notExceed, optionalText, wholeNumber } from './schemas.ts';
import { SCHEDULE_LIMITS } from './tourRounds.ts';
import { positionSchema } from './whereAndWhen.ts';

export const TOUR_LIMITS = {
  name: 80,
  instructions: 1000,
  question: 200,
  radius: { min: 10, max: 1000 },
  checkpointsPerTour: 50,
  endReason: 500,
  scanNote: 500,
} as const;

const requiredName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(TOUR_LIMITS.name, notExceed('Name', TOUR_LIMITS.name));

/** A checkpoint as directors and managers make it; its codes are the server's (pb_hooks/lib/tours.js). */
export const checkpointSchema = z.object({
  name: requiredName,
  /** Where the sticker is: taken on the phone at the spot, with its accuracy; null until someone does. */
  position: positionSchema,
  radius: wholeNumber('Radius', TOUR_LIMITS.radius),
  instructions: optionalText('Instructions', TOUR_LIMITS.instructions),
  question: optionalText('Question', TOUR_LIMITS.question),
});
export type CheckpointValues = z.infer<typeof checkpointSchema>;

export const ROUND_LONGER_THAN_INTERVAL = 'A round must end before the next one starts';

/** A tour: its checkpoints in walking order and its schedule (src/domain/tourRounds.ts). */
export const tourShape = z.object({
  name: requiredName,
  checkpoints: z
    .array(z.string().max(LIMITS.report.id, 'Invalid id'), 'Must be a list of checkpoints')
    .min(1, 'Choose at least one checkpoint')
    .max(TOUR_LIMITS.checkpointsPerTour, `A tour has at most ${TOUR_LIMITS.checkpointsPerTour} checkpoints`)
    // PocketBase would keep one of each silently: a tour is walked as the manager listed it, or refused.
    .refine((ids) => new Set(ids).size === ids.length, 'A checkpoint is listed twice'),
  start: clockTime('First round'),
  end: clockTime('Last round'),
  every_minutes: wholeNumber('Minutes between rounds', {
    min: SCHEDULE_LIMITS.minEvery,
    max: SCHEDULE_LIMITS.maxEvery,
  }),
  round_minutes: wholeNumber('Minutes a round may take', {
    min: SCHEDULE_LIMITS.minRound,
    max: SCHEDULE_LIMITS.maxRound,
  }),
  ordered: z.boolean(),
  active: z.boolean(),
});

/** The round's minutes must fit before the next round starts. */
export function roundFitsIssues(every: unknown, round: unknown, ctx: z.RefinementCtx): void {
  if (typeof every === 'number' && typeof round === 'number' && round > every)
    ctx.addIssue({ code: 'custom', path: ['round_minutes'], message: ROUND_LONGER_THAN_INTERVAL });
}

export const tourSchema = tourShape.superRefine((tour, ctx) =>
  roundFitsIssues(tour.every_minutes, tour.round_minutes, ctx),
);
export type TourValues = z.infer<typeof tourSchema>;

/** Why a walk ended with checkpoints left ('End tour' asks). */
export const endReasonSchema = z.string().trim().max(TOUR_LIMITS.endReason, notExceed('Reason', TOUR_LIMITS.endReason));
