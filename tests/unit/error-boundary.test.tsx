// @vitest-environment jsdom
/**
 * One record the code cannot draw never blanks the app: a card
 * that throws becomes 'Something went wrong' in its place while the rest of
 * the list renders, a screen that throws keeps the navigation and offers the
 * way back to Homes, and each failure is reported with its component stack.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { Layout } from '../../src/app/Layout.tsx';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import { ItemErrorBoundary } from '../../src/ui/ErrorBoundary.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { houseRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let dbCount = 0;
const status = { online: true, syncing: false, authRequired: false, lastError: null };
let consoleError: MockInstance<typeof console.error>;

beforeAll(() => {
  pb.authStore.save('token', { id: 'u1', community: 'c1', collectionId: 'users', collectionName: 'users' });
});

beforeEach(() => {
  db = new ScmsDatabase(`boundary-test-${++dbCount}`);
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  // React reports caught errors on the console too; the test reads what the boundary reports.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  consoleError.mockRestore();
  db.close();
});

const house = houseRecord;

/** The boundary's own report: its message, the error, and a component stack naming the component that threw. */
function boundaryReport(prefix: string): unknown[] | undefined {
  return consoleError.mock.calls.find((call) => typeof call[0] === 'string' && call[0].startsWith(prefix));
}

describe('list items', () => {
  test('a home card that throws shows Something went wrong in its place; the other cards render', async () => {
    // A record the card cannot draw: an object where the note's text belongs.
    await db.houses.bulkPut([
      house(),
      house({ id: 'h2', address: '7 Ocean Dr', note: { broken: true } as unknown as string }),
      house({ id: 'h3', address: '3 Bay Rd' }),
    ]);
    render(
      <MemoryRouter>
        <ToastProvider>
          <HomesPage />
        </ToastProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText('Showing 3 home(s)')).toBeTruthy();
    expect(screen.getByRole('article', { name: /12 Palm Way/ })).toBeTruthy();
    expect(screen.getByRole('article', { name: /3 Bay Rd/ })).toBeTruthy();
    expect(screen.queryByRole('article', { name: /7 Ocean Dr/ })).toBeNull();
    const report = boundaryReport('List item failed to render');
    expect(report?.[1]).toBeInstanceOf(Error);
    expect(String(report?.[2])).toContain('HomeCard');
  });

  test('a card comes back when its record changes, or on Try again', async () => {
    const user = userEvent.setup();
    let broken = true;
    function Card({ label }: { label: string }) {
      if (broken) throw new Error(`cannot draw ${label}`);
      return <li>{label}</li>;
    }
    function List() {
      const [version, setVersion] = useState(1);
      return (
        <>
          <button type="button" onClick={() => setVersion(version + 1)}>
            newer copy
          </button>
          <ul aria-label="items">
            <ItemErrorBoundary as="li" resetKey={version}>
              <Card label="first" />
            </ItemErrorBoundary>
          </ul>
        </>
      );
    }
    render(<List />);
    const list = screen.getByRole('list', { name: 'items' });
    // The notice keeps the list's markup valid: it is the list item.
    expect(within(list).getByRole('listitem').textContent).toContain('Something went wrong');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(within(list).getByText('Something went wrong')).toBeTruthy();
    broken = false;
    await user.click(screen.getByRole('button', { name: 'newer copy' }));
    expect(within(list).getByRole('listitem').textContent).toBe('first');
  });
});

describe('screens', () => {
  function Broken(): never {
    throw new Error('screen cannot draw');
  }

  test('a screen that throws keeps the navigation and goes back to Homes', async () => {
    const user = userEvent.setup();
    await db.houses.put(house());
    render(
      <ToastProvider>
        <MemoryRouter initialEntries={['/reports']}>
          <Routes>
            <Route element={<Layout />}>
              <Route path="/homes" element={<HomesPage />} />
              <Route path="/reports" element={<Broken />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </ToastProvider>,
      // React first renders concurrently, then once more synchronously before it shows the boundary, and tells of that retry here.
      { onRecoverableError: () => undefined },
    );
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    // The layout is still there: the officer can move on.
    expect(screen.getAllByRole('link', { name: 'Homes' }).length).toBeGreaterThan(0);
    const report = boundaryReport('Screen failed to render');
    expect((report?.[1] as Error).message).toBe('screen cannot draw');
    expect(String(report?.[2])).toContain('Broken');

    await user.click(within(alert).getByRole('button', { name: 'Back to Homes' }));
    expect(await screen.findByRole('article', { name: /12 Palm Way/ })).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });
});
