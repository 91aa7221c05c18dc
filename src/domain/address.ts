import type { HouseRecord } from '../api/records.ts';

/** A home's street line as every screen writes it: '110 Coral Tree Way, Apt 302', or the address alone. */
export function streetLine(house: Pick<HouseRecord, 'address' | 'apt'>): string {
  return [house.address, house.apt].filter(Boolean).join(', ');
}
