"use client";

import { useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { Alert } from "@/components/ui/alert";

/**
 * A danger button behind a modal confirmation (Escape or Cancel keeps things as they are).
 * `onConfirm` resolves to close the dialog; `error` is shown inside it when set.
 */
export function ConfirmButton({
  label,
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
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onOpen?: () => void;
  onConfirm: (close: () => void) => void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const close = () => dialog.current?.close();
  return (
    <>
      <Button
        variant="danger"
        onClick={() => {
          onOpen?.();
          dialog.current?.showModal();
        }}
      >
        {label}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-5 shadow-xl backdrop:bg-slate-900/40"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold break-words text-slate-900">
          {title}
        </h2>
        <div id={`${id}-text`} className="mt-2 text-sm text-slate-700">
          {children}
        </div>
        {error !== null && (
          <Alert inline className="mt-2">
            {error}
          </Alert>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" autoFocus onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={() => onConfirm(close)}>
            {pending ? "Working…" : confirmLabel}
          </Button>
        </div>
      </dialog>
    </>
  );
}
