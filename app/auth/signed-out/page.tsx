import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Signed out' };

export default function SignedOutPage(): React.JSX.Element {
  return (
    <section className="signed-out" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">You are signed out</h1>
      <p>Your Autoscope session has ended.</p>
      <p>
        <a href="/auth/login">Sign in again</a>
      </p>
    </section>
  );
}
