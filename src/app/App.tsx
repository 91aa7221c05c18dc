import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { currentUserRecord } from '../data/auth.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { ToastProvider } from '../ui/toast.tsx';

// The login page is the only screen in the first load (the phone
// metadata, the date picker and the mirror are for signed-in screens). The
// protected layout and each screen are their own chunks; the service worker
// precaches every chunk, so all screens still open offline.
const loadSignedIn = () => import('./signedIn.ts');
const SCREENS = {
  '/homes': () => import('../features/homes/HomesPage.tsx'),
  '/homes/house-checks': () => import('../features/patrol/HouseChecksPage.tsx'),
  '/users': () => import('../features/users/UsersPage.tsx'),
  '/concerns': () => import('../features/concerns/ConcernsPage.tsx'),
  '/reports': () => import('../features/reports/ReportsPage.tsx'),
  '/reports/create': () => import('../features/reports/CreateReportPage.tsx'),
  '/reports/daily': () => import('../features/activity/DailyReportPage.tsx'),
  '/reports/dashboard': () => import('../features/dashboard/DashboardPage.tsx'),
  '/tours': () => import('../features/tours/ToursRoutes.tsx'),
  '/safety': () => import('../features/safety/SafetyPage.tsx'),
};

/**
 * Starts fetching the layout and the screen of `pathname` together: lazy
 * components alone would fetch them one after the other (the layout must
 * render before it asks for its screen).
 */
function preload(pathname: string): void {
  void loadSignedIn();
  // Every address under /tours is the Tours feature's one chunk.
  const screen = pathname.startsWith('/tours/') ? '/tours' : pathname;
  void SCREENS[screen as keyof typeof SCREENS]?.();
}

// A saved session goes straight to its screen (or from / to /homes).
if (currentUserRecord()) preload(window.location.pathname === '/' ? '/homes' : window.location.pathname);

const RequireSession = lazy(() => loadSignedIn().then((m) => ({ default: m.RequireSession })));
const Layout = lazy(() => loadSignedIn().then((m) => ({ default: m.Layout })));
const HomesPage = lazy(() => SCREENS['/homes']().then((m) => ({ default: m.HomesPage })));
const HouseChecksPage = lazy(() => SCREENS['/homes/house-checks']().then((m) => ({ default: m.HouseChecksPage })));
// Today's house checks use the Homes screen's House check dialog: a
// feature never imports another (docs/architecture.md#the-layers), so the app hands it in (loaded
// when first opened; the screen suspends it in its own boundary).
const HouseCheckDialog = lazy(() =>
  import('../features/homes/HouseCheckDialog.tsx').then((m) => ({ default: m.HouseCheckDialog })),
);
const UsersPage = lazy(() => SCREENS['/users']().then((m) => ({ default: m.UsersPage })));
const ConcernsPage = lazy(() => SCREENS['/concerns']().then((m) => ({ default: m.ConcernsPage })));
const ReportsPage = lazy(() => SCREENS['/reports']().then((m) => ({ default: m.ReportsPage })));
const CreateReportPage = lazy(() => SCREENS['/reports/create']().then((m) => ({ default: m.CreateReportPage })));
const DailyReportPage = lazy(() => SCREENS['/reports/daily']().then((m) => ({ default: m.DailyReportPage })));
const DashboardPage = lazy(() => SCREENS['/reports/dashboard']().then((m) => ({ default: m.DashboardPage })));
const ToursRoutes = lazy(() => SCREENS['/tours']().then((m) => ({ default: m.ToursRoutes })));
const SafetyPage = lazy(() => SCREENS['/safety']().then((m) => ({ default: m.SafetyPage })));

const loading = (
  <div className="flex justify-center py-12">
    <Spinner />
  </div>
);

/** Routes (docs/product.md#navigation): / is the login page; the rest sit behind the session in the protected layout. */
export function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
        <Suspense fallback={loading}>
          <Routes>
            {/* Signing in fetches Homes while the server checks the password. */}
            <Route path="/" element={<LoginPage onSigningIn={() => preload('/homes')} />} />
            <Route element={<RequireSession />}>
              <Route element={<Layout />}>
                <Route path="/homes" element={<HomesPage />} />
                <Route path="/homes/house-checks" element={<HouseChecksPage CheckDialog={HouseCheckDialog} />} />
                <Route path="/users" element={<UsersPage />} />
                <Route path="/concerns" element={<ConcernsPage />} />
                <Route path="/reports" element={<ReportsPage />} />
                <Route path="/reports/create" element={<CreateReportPage />} />
                <Route path="/reports/daily" element={<DailyReportPage />} />
                <Route path="/reports/dashboard" element={<DashboardPage />} />
                <Route path="/tours/*" element={<ToursRoutes />} />
                <Route path="/safety" element={<SafetyPage />} />
                {/* A push notification about an alert opens it on the Safety screen. */}
                <Route path="/alerts/:alertId" element={<SafetyPage />} />
              </Route>
            </Route>
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </ToastProvider>
  );
}
