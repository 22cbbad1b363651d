import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * A resource a declaration may manage (`declaration_key`), as the drift warnings name it. A hand edit of a managed
 * resource is drift: the next `vigil plan` shows it and the next apply puts the file's value back.
 */
export interface ManagedResource {
  /** What it is, in a sentence: `monitor`, `alert destination`, `alert rule`, `status page`. */
  noun: string;
  /** Its key in the declaration (a rule's with its monitor's, `shop/down`, as plans name it); null when by hand. */
  declarationKey: string | null;
}

/** What changing (or deleting) a managed resource here means; nothing for one managed by hand. */
export function DriftWarning({ resource, deleting = false }: { resource: ManagedResource; deleting?: boolean }) {
  if (resource.declarationKey === null) return null;
  const managed = (
    <>
      This {resource.noun} is managed by a declaration (key <code>{resource.declarationKey}</code>).
    </>
  );
  return deleting ? (
    <p>
      {managed} Deleting it here is drift: the next apply creates it again while the file declares it. Remove it from
      the file instead.
    </p>
  ) : (
    <p>
      {managed} Changes made here to what the file sets are drift: the next plan shows them and the next apply reverts
      them. Change the file instead.
    </p>
  );
}

/** The notice at the top of a managed resource's edit form. */
export function DriftNotice({ resource }: { resource: ManagedResource }) {
  if (resource.declarationKey === null) return null;
  return (
    <div className="alert alert-warning drift-notice">
      <p className="alert-title">Managed by a declaration</p>
      <DriftWarning resource={resource} />
    </div>
  );
}

/**
 * Asks before a hand edit of a managed resource: `confirm(resource, { title, confirmLabel }, proceed)` runs `proceed`
 * at once for a resource managed by hand, and otherwise once the person agrees in a dialog that explains the drift.
 * The dialog closes before `proceed` runs, so the action's own busy state and errors show where they always do.
 * Render `dialog` somewhere in the component.
 */
export function useDriftConfirm(): {
  confirm: (resource: ManagedResource, ask: { title: string; confirmLabel: string }, proceed: () => void) => void;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<{
    resource: ManagedResource;
    title: string;
    confirmLabel: string;
    proceed: () => void;
  } | null>(null);

  function confirm(resource: ManagedResource, ask: { title: string; confirmLabel: string }, proceed: () => void) {
    if (resource.declarationKey === null) proceed();
    else setPending({ resource, ...ask, proceed });
  }

  const dialog = pending ? (
    <ConfirmDialog
      title={pending.title}
      confirmLabel={pending.confirmLabel}
      busyLabel={pending.confirmLabel}
      onConfirm={() => {
        setPending(null);
        pending.proceed();
        return Promise.resolve();
      }}
      onClose={() => setPending(null)}
    >
      <DriftWarning resource={pending.resource} />
    </ConfirmDialog>
  ) : null;

  return { confirm, dialog };
}
