/**
 * The two demo communities: Palm Grove Estates, the demo one, and Harbor
 * Pointe, there to show that communities are isolated. Their streets, sizes,
 * staff, and the home situations the screens should show.
 */
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
}

export type CheckKind = 'due-never-checked' | 'due-checked-before' | 'checked-today' | 'upcoming' | 'ended';

export const COMMUNITIES: CommunityPlan[] = [
  {
    key: 'pge',
    name: 'Palm Grove Estates',
    address: '1000 Palm Grove Blvd, Jupiter, FL 33458',
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
    reports: 150,
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
      21: 'due-never-checked',
      26: 'upcoming',
      33: 'due-checked-before',
      36: 'ended',
      40: 'due-never-checked',
    },
  },
  {
    key: 'hpt',
    name: 'Harbor Pointe',
    address: '2200 SE Harbor Pointe Dr, Stuart, FL 34996',
    city: 'Stuart',
    zips: ['34996', '34994'],
    areaCode: '772',
    memberPrefix: 'HPT',
    streets: ['Harbor Pointe Dr', 'Anchor Ct', 'Marlin Way'],
    aptStreets: [],
    homes: 4,
    reports: 8,
    concerns: 3,
    staff: [
      { account: DEMO_SECOND_DIRECTOR, type: 'director', first: 'Karen', last: 'Lindqvist' },
      { account: DEMO_SECOND_MANAGER, type: 'manager', first: 'Andre', last: 'Mitchell' },
    ],
    noPhones: [],
    checks: { 1: 'due-never-checked' },
  },
];
