import type { Metadata } from 'next';
import { DiagnoseView } from '@/components/diagnose/diagnose-view';

export const metadata: Metadata = { title: 'Diagnose a paste' };

export default function DiagnosePage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Diagnose a paste</h1>
      <p className="page-subtitle">
        Paste what someone copied from a terminal: the verdict is the one the fleet view gives the same object, and it says what the paste
        lacks.
      </p>
      <DiagnoseView />
    </>
  );
}
