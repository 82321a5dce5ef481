/** What a page shows while no cluster is configured at all. */
export function NoClusters(): React.JSX.Element {
  return (
    <section className="card empty-state" aria-labelledby="no-cluster">
      <h2 id="no-cluster">No cluster is configured</h2>
      <p>
        Autoscope reads clusters from <code>KUBECONFIG</code>. Set it to a kubeconfig with at least one context, then restart with{' '}
        <code>npm start</code>.
      </p>
    </section>
  );
}
