/**
 * The daily activity report's paper follows the community's country: US
 * Letter in the US (and the other Letter countries), A4 elsewhere. The
 * country comes from the community's address, else its homes' State, else
 * its phones' country; the PDF's page size is read back from jsPDF.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CommunityRecord, PhoneRecord } from '../../src/api/records.ts';
import { queryDayRecords } from '../../src/data/resources/activity.ts';
import { closeUserDatabase, userDatabase } from '../../src/data/mirror/db.ts';
import { addressCountry, communityCountry, paperFor } from '../../src/domain/paper.ts';
import { buildDayModel } from '../../src/features/activity/dayModel.ts';
import { drawDayReport } from '../../src/features/activity/dayPdf.ts';
import { houseRecord, STAMP } from '../support/records.ts';

const DAY = new Date(2026, 10, 24);
// jsPDF's page sizes in points.
const LETTER = { width: 612, height: 792 };
const A4 = { width: 595.28, height: 841.89 };

describe("a community's country", () => {
  it.each([
    ['1000 Palm Grove Blvd, Jupiter, FL 33458', 'US'],
    ['2200 SE Harbor Pointe Dr, Stuart, fl 34996-1234', 'US'],
    ['12 Ocean Dr, Miami, FL', 'US'],
    ['500 Main St, Sacramento, CA 95814', 'US'],
    ['1 Peachtree St, Atlanta, Georgia', 'US'],
    ['1 Main St, Springfield, U.S.A.', 'US'],
    ['1 Main St, Springfield\nUnited States', 'US'],
    ['100 King St W, Toronto, ON M5V 2T6', 'CA'],
    ['100 King St W, Toronto, Ontario, Canada', 'CA'],
    ['Av. Reforma 1, Ciudad de México, México', 'MX'],
    ['Ayala Ave, Makati, Philippines', 'PH'],
    ['Hauptstraße 1, 10115 Berlin, Germany', 'DE'],
    ['10 Downing St, London SW1A 2AA, UK', 'GB'],
  ])('reads %j as %s', (address, country) => {
    expect(addressCountry(address)).toBe(country);
  });

  it('reads nothing from an address that names no country or State', () => {
    expect(addressCountry('1 Blvd')).toBeUndefined();
    expect(addressCountry('')).toBeUndefined();
    expect(addressCountry('Somewhere, XX 12345')).toBeUndefined();
  });

  it("falls back to the homes' State, then to the country most of the phones belong to", () => {
    expect(communityCountry({ address: '1 Blvd', homeStates: ['FL'], phoneNumbers: ['+442071838750'] })).toBe('US');
    expect(communityCountry({ homeStates: ['Ak'] })).toBe('US');
    expect(communityCountry({ address: '', homeStates: [], phoneNumbers: ['+442071838750', '+442079460958'] })).toBe(
      'GB',
    );
    expect(communityCountry({ phoneNumbers: ['+442071838750', '+15615550101', '+15615550102'] })).toBe('US');
    expect(communityCountry({ phoneNumbers: ['not a phone'] })).toBeUndefined();
    expect(communityCountry({})).toBeUndefined();
  });

  it('prints on Letter in the Letter countries, A4 elsewhere, and Letter when nothing is known (the US defaults)', () => {
    for (const country of ['US', 'CA', 'MX', 'PH', 'PR', 'CL', 'CO']) expect(paperFor(country), country).toBe('letter');
    for (const country of ['GB', 'DE', 'FR', 'AU', 'BR', 'IN', 'ZA']) expect(paperFor(country), country).toBe('a4');
    expect(paperFor(undefined)).toBe('letter');
  });
});

describe("the daily activity report's paper", () => {
  const userId = 'paperunit00001';
  afterEach(async () => {
    await userDatabase(userId).delete();
    closeUserDatabase(userId);
  });

  const community = (address: string): CommunityRecord => ({
    id: 'c1',
    created: STAMP,
    updated: STAMP,
    name: 'Palm Grove Estates',
    address,
  });
  const phone = (id: string, number: string): PhoneRecord => ({
    id,
    created: STAMP,
    updated: STAMP,
    phone_number: number,
    primary: true,
    type: 'cell',
    house: 'h1',
  });

  /** The PDF of the day as the page makes it, from the mirror: its first page's size in points. */
  async function pageSize(): Promise<{ width: number; height: number }> {
    const db = userDatabase(userId);
    const records = await queryDayRecords(db, 'c1', DAY, new Date(2026, 10, 24, 23, 59, 59, 999));
    const doc = drawDayReport(buildDayModel(records, DAY, null), new Map(), DAY);
    const size = doc.internal.pageSize;
    return { width: Number(size.getWidth().toFixed(2)), height: Number(size.getHeight().toFixed(2)) };
  }

  it('is Letter for a Florida community', async () => {
    await userDatabase(userId).communities.put(community('1000 Palm Grove Blvd, Jupiter, FL 33458'));
    await expect(pageSize()).resolves.toEqual(LETTER);
  });

  it('is A4 for a community in Germany', async () => {
    await userDatabase(userId).communities.put(community('Hauptstraße 1, 10115 Berlin, Germany'));
    await expect(pageSize()).resolves.toEqual(A4);
  });

  it("follows the homes' State when the address says nothing, then the phones", async () => {
    const db = userDatabase(userId);
    await db.communities.put(community('1 Blvd'));
    await db.phones.bulkPut([phone('p1', '+442071838750'), phone('p2', '+442079460958')]);
    await expect(pageSize()).resolves.toEqual(A4);
    await db.houses.put(houseRecord({ id: 'h1', state: 'FL' }));
    await expect(pageSize()).resolves.toEqual(LETTER);
  });
});
