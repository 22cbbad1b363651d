import { AdminKeys } from './AdminKeys';
import { AdminUsers } from './AdminUsers';

export function AdminPage() {
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Admin</h1>
          <p className="lead">People who can sign in, and the rate-limit ceiling of every API key.</p>
        </div>
      </div>
      <AdminUsers />
      <AdminKeys />
    </>
  );
}
