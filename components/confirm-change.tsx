"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useState, type ComponentProps, type ReactNode } from "react";
import { changeSentence, personLine } from "@/components/confirm-change-words";
import { errorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-button";
import { plural, pluralWord } from "@/lib/plural";
import { previewChangeQuery } from "@/lib/queries/preview";
import type { PreviewChange } from "@/lib/schemas/preview";

/**
 * The confirm dialog of a change a leader saves (SPEC §23): before Confirm, it asks the server
 * what the change would do (`POST …/preview-change`, which saves nothing) and says it in words,
 * "3 people lose 2 tools; for 1, calendar_add becomes calendar_2_add", with each person's
 * change one click away.
 */

/** What `change` would do, asked when shown. */
export function ChangePreview({ org, change }: { org: string; change: PreviewChange }) {
  const preview = useQuery(previewChangeQuery(org, change));
  if (preview.isPending) {
    return (
      <p role="status" className="text-slate-600">
        Working out whose tools this changes…
      </p>
    );
  }
  if (preview.isError) {
    return <p className="text-rose-900">What this changes for each person could not be worked out: {errorMessage(preview.error, "something went wrong.")}</p>;
  }
  const { people, unchanged } = preview.data;
  return (
    <div className="space-y-1 rounded border border-slate-200 bg-slate-50 p-2" data-testid="change-preview">
      <p className="font-medium text-slate-900" data-testid="change-sentence">
        {changeSentence(preview.data)}
      </p>
      {people.length > 0 && unchanged > 0 && (
        <p className="text-slate-700">
          {plural(unchanged, "other person", "other people")} {pluralWord(unchanged, "keeps", "keep")} their tools as they are.
        </p>
      )}
      {people.length > 0 && (
        <details>
          <summary className="cursor-pointer text-indigo-800">Who, tool by tool</summary>
          <ul aria-label="What changes for each person" className="mt-1 max-h-48 space-y-1 overflow-y-auto text-xs break-words">
            {people.map((person) => (
              <li key={person.id}>
                <span className="font-medium">{person.email}</span>: {personLine(person)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

type DialogProps = ComponentProps<typeof ConfirmDialog>;

/**
 * A `ConfirmDialog` that says what `change` would do before it is confirmed; `change` is null
 * while there is nothing to ask (closed), so that nothing is asked of the server then.
 */
function ConfirmChangeDialog({ org, change, children, ...dialog }: Omit<DialogProps, "children"> & { org: string; change: PreviewChange | null; children?: ReactNode }) {
  return (
    <ConfirmDialog {...dialog}>
      {children}
      {change !== null && <ChangePreview org={org} change={change} />}
    </ConfirmDialog>
  );
}

/** A button that opens a `ConfirmChangeDialog` (Approve, Save a group's members…). */
export function ConfirmChangeButton({
  label,
  variant = "secondary",
  disabled,
  org,
  change,
  title,
  children,
  confirmLabel,
  pending,
  error,
  onOpen,
  onConfirm,
}: {
  /** The button's visible text and its accessible name. */
  label: ReactNode;
  variant?: ComponentProps<typeof Button>["variant"];
  disabled?: boolean;
  org: string;
  change: PreviewChange;
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onOpen?: () => void;
  onConfirm: (close: () => void) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant={variant}
        disabled={disabled}
        onClick={() => {
          onOpen?.();
          setOpen(true);
          ref.current?.showModal();
        }}
      >
        {label}
      </Button>
      <ConfirmChangeDialog
        dialogRef={ref}
        org={org}
        change={open ? change : null}
        title={title}
        confirmLabel={confirmLabel}
        confirmVariant="primary"
        pending={pending}
        error={error}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      >
        {children}
      </ConfirmChangeDialog>
    </>
  );
}
