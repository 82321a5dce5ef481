export default function PreviewsPage(): React.JSX.Element {
  return (
    <>
      <h1 className="page-title">Previews</h1>
      <p className="page-subtitle">See what a change would do before you make it.</p>
      <section className="card">
        <p>Previews run the upstream decision code on a cluster&apos;s live state. They need a configured cluster.</p>
        <ul>
          <li>HPA preview: what the HPA controller would decide with other targets, behavior or bounds.</li>
          <li>Federation preview: how a FederatedHPA&apos;s replicas and bounds split across member clusters.</li>
        </ul>
      </section>
    </>
  );
}
