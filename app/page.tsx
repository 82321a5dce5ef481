import { NoClusters } from '@/components/no-clusters';

export default function OverviewPage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Overview</h1>
      <p className="page-subtitle">Every autoscaler in every cluster, by health.</p>
      <NoClusters />
    </>
  );
}
