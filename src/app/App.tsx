import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { ToastProvider } from '../ui/toast.tsx';
import { Layout } from './Layout.tsx';
import { RequireSession } from './RequireSession.tsx';

// Each screen is its own chunk (phones load less up front); the service
// worker precaches every chunk, so all screens still open offline.
const HomesPage = lazy(() => import('../features/homes/HomesPage.tsx').then((m) => ({ default: m.HomesPage })));
const UsersPage = lazy(() => import('../features/users/UsersPage.tsx').then((m) => ({ default: m.UsersPage })));
const ConcernsPage = lazy(() => import('../features/concerns/ConcernsPage.tsx').then((m) => ({ default: m.ConcernsPage })));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage.tsx').then((m) => ({ default: m.ReportsPage })));
const CreateReportPage = lazy(() => import('../features/reports/CreateReportPage.tsx').then((m) => ({ default: m.CreateReportPage })));

const loading = (
  <div className="flex justify-center py-12">
    <Spinner />
  </div>
);

/** Routes of spec §2: / is the login page; the rest sit behind the session in the protected layout. */
export function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
        <Suspense fallback={loading}>
        <Routes>
          <Route path="/" element={<LoginPage />} />
          <Route element={<RequireSession />}>
            <Route element={<Layout />}>
              <Route path="/homes" element={<HomesPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/concerns" element={<ConcernsPage />} />
              <Route path="/reports" element={<ReportsPage />} />
              <Route path="/reports/create" element={<CreateReportPage />} />
            </Route>
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
        </Suspense>
      </BrowserRouter>
    </ToastProvider>
  );
}
