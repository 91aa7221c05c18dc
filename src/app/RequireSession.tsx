import { Navigate, Outlet } from 'react-router-dom';
import { pb } from '../api/client.ts';
import { DataProvider } from '../data/DataProvider.tsx';

/**
 * Protected layout: without a saved session every protected route goes to /
 * (spec §2). With one — even offline, with an expired token — the screens
 * run on the user's local mirror and sync engine (DESIGN.md "Auth offline").
 */
export function RequireSession() {
  const user = pb.authStore.record;
  if (!user) return <Navigate to="/" replace />;
  return (
    <DataProvider pb={pb} userId={user.id}>
      <Outlet />
    </DataProvider>
  );
}
