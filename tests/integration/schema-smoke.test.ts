import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCommunity, startTestServer, type TestServer } from '../support/pocketbase.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.stop();
});

test('a regular officer creates a house in their community and cannot see another', async () => {
  const a = await createCommunity(t.admin, 'a');
  const b = await createCommunity(t.admin, 'b');
  const pbA = await t.signIn(a.regular.email);
  const house = await pbA
    .collection('houses')
    .create({ address: '1 Main St', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id });
  const res = await pbA.collection('residents').create({ first_name: 'Ann', last_name: 'Lee', house: house.id });
  expect(res.house).toBe(house.id);
  const pbB = await t.signIn(b.regular.email);
  await expect(pbB.collection('houses').getOne(house.id)).rejects.toMatchObject({ status: 404 });
  await expect(
    pbB.collection('residents').create({ first_name: 'X', last_name: 'Y', house: house.id }),
  ).rejects.toMatchObject({ status: 400 });
  const report = await pbA.collection('reports').create({
    narative: 'x',
    type: 'accident',
    weather: 'clear',
    incident_time: new Date().toISOString(),
    community: a.community.id,
    created_by: a.regular.id,
    house: house.id,
    resident: res.id,
  });
  expect(report.id).toHaveLength(15);
  await expect(
    pbB.collection('reports').create({
      narative: 'x',
      type: 'accident',
      weather: 'clear',
      incident_time: new Date().toISOString(),
      community: b.community.id,
      created_by: b.regular.id,
      house: house.id,
    }),
  ).rejects.toMatchObject({ status: 400 });
});
