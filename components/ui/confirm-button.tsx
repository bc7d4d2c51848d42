"use client";

import { useId, useRef, type ReactNode, type RefObject } from "react";
import { Button } from "./button";
import { Alert } from "@/components/ui/alert";

/**
 * A modal confirmation (Escape or Cancel keeps things as they are), opened with
 * `dialogRef.current.showModal()`. `onConfirm` gets `close`; `error` is shown inside it when set.
 */
export function ConfirmDialog({
  dialogRef,
  title,
  children,
  confirmLabel,
  confirmVariant = "danger",
  pending,
  error,
  onConfirm,
  onClose,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  confirmVariant?: "danger" | "primary";
  pending: boolean;
  error: string | null;
  onConfirm: (close: () => void) => void;
  /** Told however the dialog closes: Cancel, Escape or a confirmation. */
  onClose?: () => void;
}) {
  const id = useId();
  const close = () => dialogRef.current?.close();
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      // A close event comes a task after close(): one that finds the dialog open again (a quick
      // second choice on a busy machine) is of the earlier opening, and must not empty this one.
      onClose={() => {
        if (dialogRef.current?.open !== true) onClose?.();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-5 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold break-words text-slate-900">
        {title}
      </h2>
      <div id={`${id}-text`} className="mt-2 space-y-2 text-sm text-slate-700">
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
        <Button variant={confirmVariant} disabled={pending} onClick={() => onConfirm(close)}>
          {pending ? "Working…" : confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}

/** A danger button behind a `ConfirmDialog`. */
export function ConfirmButton({
  label,
  onOpen,
  ...dialog
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
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <>
      <Button
        variant="danger"
        onClick={() => {
          onOpen?.();
          ref.current?.showModal();
        }}
      >
        {label}
      </Button>
      <ConfirmDialog dialogRef={ref} {...dialog} />
    </>
  );
}
