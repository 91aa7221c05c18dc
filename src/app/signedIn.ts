/**
 * Everything behind the session, loaded only once someone is signed in: the
 * mirror and sync engine (Dexie) and the layout (Headless UI). One module,
 * so the login page's bundle holds none of it and the protected routes come
 * in one request (App.tsx lazy-loads it; the bundle budget in
 * scripts/bundle-budget.ts counts it for the Homes screen).
 */
export { Layout } from './Layout.tsx';
export { RequireSession } from './RequireSession.tsx';
