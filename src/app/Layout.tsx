/**
 * The protected layout (docs/product.md#navigation): top navigation with SCMS, Homes, Users,
 * Concerns, Reports, Tours and Safety (the active entry highlighted), the community name,
 * the sync badge, Start/End shift and Log out; below a laptop's width (1024 px: phones and
 * tablets) the entries move into a side drawer. Over every screen: the Panic button while on duty and the alarms that are on.
 */
import { Dialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import { lazy, Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useSignedInRecord, type ChangeOutcome } from '../data/auth.ts';
import { useSyncEngine } from '../data/DataProvider.tsx';
import { useMirrorQuery } from '../data/mirror/useMirrorQuery.ts';
import { ScreenErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { KeyIcon } from '../ui/icons.tsx';
import { Sheet } from '../ui/Sheet.tsx';
import { useToast, useToastHost } from '../ui/toast.tsx';
import { lazyPart } from '../ui/lazyPart.tsx';
import { SessionExpiredBanner } from './SessionExpiredBanner.tsx';
import { useLogOut } from './LogOut.tsx';
import { SyncBadge } from './SyncBadge.tsx';
import { ThemeMenu, ThemeRadios } from './ThemeChoice.tsx';

// Officer safety (the Panic button, alarm banners, Start/End shift) loads after the first screen: its own chunk.
const SafetySlot = lazy(() => import('../features/safety/SafetyLayer.tsx'));
// Opened from the menu now and then: loaded on the first opening, not with every screen.
const ChangePasswordForm = lazyPart(() =>
  import('../features/auth/ChangePasswordForm.tsx').then((module) => module.ChangePasswordForm),
);

const ENTRIES = [
  { to: '/homes', label: 'Homes' },
  { to: '/users', label: 'Users' },
  { to: '/concerns', label: 'Concerns' },
  { to: '/reports', label: 'Reports' },
  { to: '/tours', label: 'Tours' },
  { to: '/safety', label: 'Safety' },
];

function isActive(pathname: string, to: string): boolean {
  // docs/product.md#navigation: Homes is highlighted on both / and /homes.
  if (to === '/homes') return pathname === '/' || pathname.startsWith('/homes');
  if (to === '/reports') return pathname.startsWith('/reports');
  if (to === '/tours') return pathname.startsWith('/tours');
  if (to === '/safety') return pathname.startsWith('/safety');
  return pathname === to;
}

function NavEntries({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <>
      {ENTRIES.map((entry) => {
        const active = isActive(pathname, entry.to);
        return (
          <NavLink
            key={entry.to}
            to={entry.to}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={`rounded px-3 py-2 text-sm font-medium ${active ? 'bg-white text-black' : 'text-white hover:bg-white/15'}`}
          >
            {entry.label}
          </NavLink>
        );
      })}
    </>
  );
}

export function Layout() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The menu hosts no toast: one raised before it opened would float over its Log out (src/ui/toast.tsx).
  useToastHost(drawerOpen, { showsToasts: false });
  const [changingPassword, setChangingPassword] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const toast = useToast();
  const engine = useSyncEngine();
  const user = useSignedInRecord();
  const community = useMirrorQuery(
    engine.db,
    ['communities'],
    async () => (user?.community ? engine.db.communities.get(user.community as string) : undefined),
    [user?.community],
  );

  const logOut = useLogOut();

  function passwordChanged(outcome: ChangeOutcome) {
    setChangingPassword(false);
    if (outcome === 'changed-signed-out') {
      toast({ title: 'Success', description: 'Password changed. Log in with your new password.' });
      navigate('/', { replace: true });
      return;
    }
    toast({ title: 'Success', description: 'Password changed' });
    // The old token is void: let the engine see the new one now (a check in between may have found the old one refused).
    void engine.checkSession();
  }

  /** In the top bar between lg and xl a key icon (its name stays 'Change password'): the words would push Log out off the bar. */
  const changePasswordButton = (compact: boolean) => (
    <button
      type="button"
      aria-label={compact ? 'Change password' : undefined}
      title={compact ? 'Change password' : undefined}
      onClick={() => {
        setDrawerOpen(false);
        setChangingPassword(true);
      }}
      className="rounded px-3 py-2 text-sm font-medium whitespace-nowrap text-white hover:bg-white/15"
    >
      {compact ? (
        <>
          <KeyIcon className="xl:hidden" />
          <span className="hidden xl:inline">Change password</span>
        </>
      ) : (
        'Change password'
      )}
    </button>
  );

  const logOutButton = (
    <button
      type="button"
      onClick={() => {
        setDrawerOpen(false);
        logOut.askLogOut();
      }}
      className="whitespace-nowrap rounded border border-white/40 px-3 py-2 text-sm font-medium text-white hover:bg-white/15"
    >
      Log out
    </button>
  );

  return (
    <div className="min-h-screen bg-gray-50">
      <nav className="scheme-light sticky top-0 z-40 bg-black text-white">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2">
          <button
            type="button"
            className="rounded p-2 lg:hidden"
            aria-label="Open menu"
            onClick={() => setDrawerOpen(true)}
          >
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <span className="text-lg font-bold">SCMS</span>
          {community && <span className="hidden truncate text-sm text-white/70 sm:inline">{community.name}</span>}
          <div className="ml-4 hidden items-center gap-1 lg:flex">
            <NavEntries />
          </div>
          <div className="ml-auto flex items-center gap-2">
            <SyncBadge />
            <div className="hidden items-center gap-1 lg:flex">
              <Suspense>
                <SafetySlot slot="shift" />
              </Suspense>
              <ThemeMenu />
              {changePasswordButton(true)}
              {logOutButton}
            </div>
          </div>
        </div>
        {/* Inside the sticky bar, so scrolling never takes it away or under the bar. */}
        <SessionExpiredBanner />
        <Suspense>
          <SafetySlot slot="alarms" />
        </Suspense>
      </nav>
      {/* A dialog needs a name for screen readers (axe: aria-dialog-name); the drawer's visible title is only the logo. */}
      <Dialog
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        aria-label="Menu"
        className="relative z-50 lg:hidden"
      >
        <DialogBackdrop className="fixed inset-0 bg-scrim/40" />
        <DialogPanel className="scheme-light fixed inset-y-0 left-0 flex w-64 flex-col gap-1 bg-black p-4 text-white">
          <div className="mb-2 flex items-center justify-between">
            <span className="text-lg font-bold">SCMS</span>
            {/* A way out that does not depend on knowing to tap beside the drawer. */}
            <button
              type="button"
              aria-label="Close menu"
              onClick={() => setDrawerOpen(false)}
              className="flex size-11 items-center justify-center rounded text-2xl leading-none text-white/80 hover:text-white"
            >
              ×
            </button>
          </div>
          {community && <span className="mb-3 text-sm text-white/70">{community.name}</span>}
          <NavEntries onNavigate={() => setDrawerOpen(false)} />
          <div className="mt-auto flex flex-col items-start gap-2">
            <Suspense>
              <SafetySlot slot="shift" onDone={() => setDrawerOpen(false)} />
            </Suspense>
            <ThemeRadios />
            {changePasswordButton(false)}
            {logOutButton}
          </div>
        </DialogPanel>
      </Dialog>
      <Sheet open={changingPassword} onClose={() => setChangingPassword(false)} title="Change password">
        <ChangePasswordForm onChanged={passwordChanged} />
      </Sheet>
      <main className="mx-auto max-w-6xl px-4 py-6">
        {/* Each screen on its own: a failed one keeps the navigation and tries again on the next route. */}
        <ScreenErrorBoundary resetKey={pathname} onBack={() => navigate('/homes')}>
          <Outlet />
        </ScreenErrorBoundary>
        <Suspense>
          <SafetySlot slot="panic" />
        </Suspense>
      </main>
      {logOut.view}
    </div>
  );
}
