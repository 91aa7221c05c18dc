import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function HomesPage() {
  return <PlaceholderScreen title="Homes" />;
}
