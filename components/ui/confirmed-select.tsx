"use client";

import { useRef, useState, type ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-button";

/**
 * A setting's select whose choice is only saved once confirmed: choosing opens a `ConfirmDialog`
 * that says what the choice changes (`title`, `body`); Cancel or Escape keeps `value` as it is.
 */
export function ConfirmedSelect<T extends string>({
  id,
  label,
  describedBy,
  value,
  options,
  optionLabel,
  confirmLabel,
  pending,
  error,
  title,
  body,
  onOpen,
  onConfirm,
}: {
  id: string;
  /** The select's accessible name. */
  label: string;
  describedBy?: string;
  value: T;
  options: readonly T[];
  optionLabel: (option: T) => string;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  title: (chosen: T) => ReactNode;
  body: (chosen: T) => ReactNode;
  onOpen?: () => void;
  onConfirm: (chosen: T, close: () => void) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [asked, setAsked] = useState<T | null>(null);
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        aria-describedby={describedBy}
        value={value}
        disabled={pending}
        onChange={(e) => {
          const chosen = options.find((o) => o === e.target.value);
          if (chosen === undefined) return;
          onOpen?.();
          setAsked(chosen);
          dialog.current?.showModal();
        }}
        className="rounded border border-slate-300 bg-white px-2 py-1"
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {optionLabel(o)}
          </option>
        ))}
      </select>
      <ConfirmDialog
        dialogRef={dialog}
        title={asked === null ? "" : title(asked)}
        confirmLabel={confirmLabel}
        confirmVariant="primary"
        pending={pending}
        error={error}
        onConfirm={(close) => (asked === null || asked === value ? close() : onConfirm(asked, close))}
        onClose={() => setAsked(null)}
      >
        {asked !== null && body(asked)}
      </ConfirmDialog>
    </>
  );
}
