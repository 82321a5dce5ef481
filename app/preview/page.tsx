import type { Metadata } from 'next';
import { PreviewIndex } from '@/components/preview/preview-index';

export const metadata: Metadata = { title: 'Previews' };

export default function PreviewsPage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Previews</h1>
      <p className="page-subtitle">
        See what a change would do before you make it: the upstream decision code, run on a cluster’s live state.
      </p>
      <PreviewIndex />
    </>
  );
}
