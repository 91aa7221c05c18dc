import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function ReportsPage() {
  return <PlaceholderScreen title="Reports" />;
}
