'use client';

import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../queries/keys';
import { markSigningOut } from './signing-out';

/**
 * The signed-in person in the header: name, groups, and sign-out (a POST, so a link elsewhere cannot sign
 * anyone out). Nothing in the modes without sign-in.
 */
export function UserMenu(): React.JSX.Element | null {
  const { data } = useQuery(meQuery());
  if (!data?.user) return null;
  const groups = data.user.groups;
  return (
    <div className="user-menu" data-testid="user-menu">
      <span className="user-name" title={data.user.email ?? undefined}>
        {data.user.name}
      </span>
      {groups.length > 0 ? (
        <span className="user-groups" data-testid="user-groups" title={`Groups: ${groups.join(', ')}`}>
          {groups.join(', ')}
        </span>
      ) : null}
      {data.signOutPath ? (
        <form method="post" action={data.signOutPath} onSubmit={markSigningOut}>
          <button type="submit" className="sign-out">
            Sign out
          </button>
        </form>
      ) : null}
    </div>
  );
}
