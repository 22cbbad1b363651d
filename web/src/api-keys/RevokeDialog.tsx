import { api, ok } from '../api';
import { displayPrefix } from '../components/api-key-status';
import { ConfirmDialog } from '../components/ConfirmDialog';
import type { ApiKey } from '../types';

export function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: (revoked: ApiKey | null) => void }) {
  return (
    <ConfirmDialog
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      busyLabel="Revoking…"
      onConfirm={async () =>
        onClose(await ok(api.DELETE('/users/me/api-keys/{id}', { params: { path: { id: apiKey.id } } })))
      }
      onClose={() => onClose(null)}
    >
      <p>
        Requests with the key <code className="nowrap">{displayPrefix(apiKey.prefix)}…</code> are refused immediately,
        on every instance. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
