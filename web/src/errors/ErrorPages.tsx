import { usePageTitle } from '../components/usePageTitle';
import { Link } from '../router';

export function NotPermittedPage() {
  usePageTitle('Not permitted');
  return (
    <section className="empty-state">
      <h1>Not permitted</h1>
      <p>This area is for administrators. Your account does not have the administrator role.</p>
      <p>
        <Link to="/release-checks">Back to release checks</Link>
      </p>
    </section>
  );
}

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <section className="empty-state">
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p>
        <Link to="/release-checks">Go to release checks</Link>
      </p>
    </section>
  );
}
