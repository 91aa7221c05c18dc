import { Navigate, Outlet } from 'react-router-dom';
import { pb } from '../api/client.ts';

/** Protected layout: without a saved session every protected route goes to / (spec §2). */
export function RequireSession() {
  if (!pb.authStore.record) return <Navigate to="/" replace />;
  return <Outlet />;
}
