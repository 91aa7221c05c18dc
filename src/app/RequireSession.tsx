import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router-dom';
import { useSignedInRecord } from '../data/auth.ts';
import { DataProvider } from '../data/DataProvider.tsx';
import { logOut } from './session.ts';

/** Loaded when it is needed (a first sign-in with a temporary password), not with every session's screens. */
const ChangePasswordPage = lazy(() =>
  import('../features/auth/ChangePasswordPage.tsx').then((m) => ({ default: m.ChangePasswordPage })),
);

/**
 * Protected layout: without a saved session every protected route goes to /
 * (docs/product.md#login). With one — even offline, with an expired token — the screens
 * run on the user's local mirror and sync engine (docs/product.md#offline-sessions).
 * A user still on a temporary password (the server's must_change_password)
 * sees only the password change, whatever the route, until it is done.
 */
export function RequireSession() {
  const user = useSignedInRecord();
  const navigate = useNavigate();
  if (!user) return <Navigate to="/" replace />;
  if (user.must_change_password === true) {
    return (
      <Suspense fallback={null}>
        <ChangePasswordPage
          // Log out here too leaves nothing of the community on the device (a mirror of an earlier session); the outbox stays.
          onLogOut={() => void logOut(user.id).finally(() => navigate('/', { replace: true }))}
        />
      </Suspense>
    );
  }
  return (
    <DataProvider userId={user.id}>
      <Outlet />
    </DataProvider>
  );
}
