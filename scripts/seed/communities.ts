/**
 * The two demo communities: Palm Grove Estates, the demo one, and Harbor
 * Pointe, there to show that communities are isolated. Their streets, sizes,
 * staff, and the home situations the screens should show.
 */
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import type { CallOutcome } from '../../src/domain/callOutcome.ts';
import {
  DEMO_DIRECTOR,
  DEMO_MANAGER,
  DEMO_REGULAR,
  DEMO_SECOND_DIRECTOR,
  DEMO_SECOND_MANAGER,
  type DemoAccount,
} from './demo-account.ts';

export interface StaffPlan {
  account: DemoAccount;
  type: 'director' | 'manager' | 'regular';
  first: string;
  last: string;
}

export interface CommunityPlan {
  /** Prefix of every id key of this community. */
  key: string;
  name: string;
  address: string;
  /**
   * The community's time zone: the one its call settings name, and while it
   * has none saved (as in the demo), the app's default. Days, months and the
   * times narratives give are the community's.
   */
  timeZone: string;
  city: string;
  zips: readonly string[];
  areaCode: string;
  memberPrefix: string;
  streets: readonly string[];
  /** Streets of villas or condos, whose homes carry an apt/unit. */
  aptStreets: readonly string[];
  homes: number;
  reports: number;
  concerns: number;
  staff: StaffPlan[];
  /** Home indexes (0-based) with no phone at all: the card shows 'Primary phone number missing'. */
  noPhones: readonly number[];
  /** House-check situations by home index. */
  checks: Readonly<Record<number, CheckKind>>;
  /** Calls placed over the last weeks, by home index, oldest first: each ended with this outcome. */
  calls: ReadonlyArray<readonly [number, CallOutcome]>;
}

/**
 * A home's house-check window and its check (always with the report the
 * check made, as the app writes them together):
 * - due-never-checked: window holds today, never checked;
 * - due-checked-before: window holds today, last checked in an earlier window, before the seeded history;
 * - checked-today: window holds today, checked today;
 * - checked-earlier: window holds today, checked on an earlier day of it;
 * - upcoming: window starts in a few days;
 * - ended: window of the last weeks, checked in it;
 * - missed: window of the last weeks, never checked.
 */
export type CheckKind =
  'due-never-checked' | 'due-checked-before' | 'checked-today' | 'checked-earlier' | 'upcoming' | 'ended' | 'missed';

export const COMMUNITIES: CommunityPlan[] = [
  {
    key: 'pge',
    name: 'Palm Grove Estates',
    address: '1000 Palm Grove Blvd, Jupiter, FL 33458',
    timeZone: DEFAULT_CALL_SETTINGS.timeZone,
    city: 'Jupiter',
    zips: ['33458', '33458', '33477', '33469'],
    areaCode: '561',
    memberPrefix: 'PGE',
    streets: [
      'Palm Grove Dr',
      'Egret Way',
      'Heron Cove Ln',
      'Seagrape Ct',
      'Banyan Cir',
      'Pelican Point Dr',
      'Sabal Palm Ter',
      'Osprey Ln',
      'Mangrove Bay Rd',
      'Coral Tree Way',
    ],
    aptStreets: ['Seagrape Ct', 'Coral Tree Way'],
    homes: 42,
    // Incident reports; each house check adds its own.
    reports: 135,
    concerns: 10,
    staff: [
      { account: DEMO_DIRECTOR, type: 'director', first: 'Dana', last: 'Whitfield' },
      { account: DEMO_MANAGER, type: 'manager', first: 'Marcus', last: 'Bell' },
      { account: DEMO_REGULAR, type: 'regular', first: 'Luis', last: 'Ortega' },
    ],
    noPhones: [5, 17, 29, 38],
    checks: {
      2: 'due-never-checked',
      9: 'due-checked-before',
      14: 'checked-today',
      15: 'checked-earlier',
      16: 'ended',
      18: 'ended',
      21: 'due-never-checked',
      22: 'ended',
      23: 'missed',
      24: 'ended',
      25: 'checked-earlier',
      26: 'upcoming',
      27: 'ended',
      28: 'ended',
      30: 'ended',
      31: 'missed',
      32: 'ended',
      33: 'due-checked-before',
      34: 'ended',
      35: 'ended',
      36: 'ended',
      37: 'ended',
      39: 'ended',
      40: 'due-never-checked',
      41: 'ended',
    },
    // Homes the journeys call themselves (PGE-1001..1014, 1020, 1021) are left out.
    calls: [
      [15, 'answered'],
      [22, 'no_answer'],
      [16, 'voicemail'],
      [24, 'busy'],
      [30, 'answered'],
      [27, 'failed'],
      [15, 'voicemail'],
      [31, 'no_answer'],
      [34, 'answered'],
      [18, 'busy'],
      [35, 'voicemail'],
      [22, 'answered'],
      [39, 'failed'],
      [16, 'answered'],
    ],
  },
  {
    key: 'hpt',
    name: 'Harbor Pointe',
    address: '2200 SE Harbor Pointe Dr, Stuart, FL 34996',
    timeZone: DEFAULT_CALL_SETTINGS.timeZone,
    city: 'Stuart',
    zips: ['34996', '34994'],
    areaCode: '772',
    memberPrefix: 'HPT',
    streets: ['Harbor Pointe Dr', 'Anchor Ct', 'Marlin Way'],
    aptStreets: [],
    homes: 4,
    reports: 7,
    concerns: 3,
    staff: [
      { account: DEMO_SECOND_DIRECTOR, type: 'director', first: 'Karen', last: 'Lindqvist' },
      { account: DEMO_SECOND_MANAGER, type: 'manager', first: 'Andre', last: 'Mitchell' },
    ],
    noPhones: [],
    checks: { 1: 'due-never-checked', 2: 'ended' },
    calls: [[3, 'answered']],
  },
];
