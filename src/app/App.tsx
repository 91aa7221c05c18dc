import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RequireSession } from './RequireSession.tsx';
import { PlaceholderScreen } from './PlaceholderScreen.tsx';

/** Routes of spec §2. The screens behind the session arrive with the next issues. */
export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<LoginPage />} />
        <Route element={<RequireSession />}>
          <Route path="/homes" element={<PlaceholderScreen title="Homes" />} />
          <Route path="/users" element={<PlaceholderScreen title="Users" />} />
          <Route path="/concerns" element={<PlaceholderScreen title="Concerns" />} />
          <Route path="/reports" element={<PlaceholderScreen title="Reports" />} />
          <Route path="/reports/create" element={<PlaceholderScreen title="Create report" />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
