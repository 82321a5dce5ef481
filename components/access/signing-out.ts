/**
 * Whether this page has sent its sign-out. The sign-out form's POST ends the session at once, so a query or
 * the live stream answering 401 in the moment before the browser follows the sign-out's redirect would
 * otherwise send the page to sign in again — a navigation that replaces the sign-out's own, leaving the
 * provider's session alive and the person signed straight back in.
 */
let signingOut = false;

export function markSigningOut(): void {
  signingOut = true;
}

export function isSigningOut(): boolean {
  return signingOut;
}
