import { NoClusters } from '@/components/no-clusters';

export default function TriagePage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Triage</h1>
      <p className="page-subtitle">Broken autoscalers across the fleet, grouped by cause.</p>
      <NoClusters />
    </>
  );
}
