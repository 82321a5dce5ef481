/** On every page when AUTOSCOPE_AUTH=none: nobody signs in, so anyone who reaches the port sees every cluster. */
export function OpenAccessBanner(): React.JSX.Element {
  return (
    <div className="open-access-banner" role="alert" data-testid="open-access-banner">
      <strong>No sign-in.</strong> AUTOSCOPE_AUTH=none: anyone who can reach this address sees every cluster. Set AUTOSCOPE_AUTH=oidc or
      proxy to require sign-in.
    </div>
  );
}
