import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useNavigate } from 'react-router-dom';
import { SessionContext } from '../../base/session';
import { selectUser } from '../../../machines/session.selectors';
import { Avatar } from '../../ui/Avatar';

/** External tip-jar link of the avatar menu (docs/client.md §1). */
const TIP_JAR_URL = 'https://ko-fi.com/';

/**
 * The logged-in avatar menu (docs/client.md §1): Dashboard, Profile, My Games, Spectate
 * Games, the tip jar, Logout. Keyboard-operable through Radix. Its trigger is named by its content,
 * '{username}, account menu' (the name visible, the rest for screen readers; on a phone the name
 * is visually hidden), so what it announces starts with what it shows (axe label-content-name-mismatch).
 */
export function AvatarMenu() {
  const user = SessionContext.useSelector(selectUser);
  const session = SessionContext.useActorRef();
  const navigate = useNavigate();
  if (!user) return null;
  const go = (path: string) => () => navigate(path);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="avatar-trigger">
        <Avatar url={user.avatar_url} username={user.username} decorative />
        <span className="avatar-trigger__name">{user.username}</span>
        <span className="visually-hidden">, account menu</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Item className="menu__item" onSelect={go('/dashboard')}>Dashboard</DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={go('/profile')}>Profile</DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={go('/games')}>My Games</DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={go('/games/spectate-auth')}>Spectate Games</DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" asChild>
            <a href={TIP_JAR_URL} target="_blank" rel="noopener noreferrer">Tip Jar ↗</a>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu__sep" />
          <DropdownMenu.Item
            className="menu__item menu__item--danger"
            onSelect={() => {
              session.send({ type: 'session.logout' });
              navigate('/');
            }}
          >
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
