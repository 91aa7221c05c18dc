import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { ConcernsPage } from '../features/concerns/ConcernsPage.tsx';
import { HomesPage } from '../features/homes/HomesPage.tsx';
import { CreateReportPage } from '../features/reports/CreateReportPage.tsx';
import { ReportsPage } from '../features/reports/ReportsPage.tsx';
import { UsersPage } from '../features/users/UsersPage.tsx';
import { ToastProvider } from '../ui/toast.tsx';
import { Layout } from './Layout.tsx';
import { RequireSession } from './RequireSession.tsx';

/** Routes of spec §2: / is the login page; the rest sit behind the session in the protected layout. */
export function App() {
  return (
    <ToastProvider>
      <BrowserRouter>
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
      </BrowserRouter>
    </ToastProvider>
  );
}
