import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function UsersPage() {
  return <PlaceholderScreen title="Users" />;
}
