import { Link } from 'react-router-dom';

/**
 * The breadcrumb (docs/client.md §1): a link to the previous page and the
 * current page's name.
 */
export function Breadcrumb({ previous, current }: { previous: { to: string; label: string }; current: string }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol className="breadcrumb__list">
        <li className="breadcrumb__item">
          <Link to={previous.to}>{previous.label}</Link>
        </li>
        <li className="breadcrumb__item" aria-current="page">
          {current}
        </li>
      </ol>
    </nav>
  );
}
