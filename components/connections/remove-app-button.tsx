"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef } from "react";
import { Button } from "@/components/ui/button";
import { removeAppMutation } from "@/lib/queries/orgs";
import { removeMyAppMutation } from "@/lib/queries/people";
import { Alert, errorMessage } from "@/components/ui/alert";

/** Remove (one of the organisation's apps, or with `personal` one of the caller's own), behind a modal confirmation (Escape or Cancel keeps the app). */
export function RemoveAppButton({ org, appId, appName, onRemoved, personal = false }: { org: string; appId: string; appName: string; onRemoved?: () => void; personal?: boolean }) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const client = useQueryClient();
  const remove = useMutation(personal ? removeMyAppMutation(client, org) : removeAppMutation(client, org));

  return (
    <>
      <Button variant="danger" onClick={() => { remove.reset(); dialog.current?.showModal(); }}>
        Remove<span className="sr-only"> {appName}</span>
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-5 shadow-xl backdrop:bg-slate-900/40"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          Remove {appName}?
        </h2>
        <p id={`${id}-text`} className="mt-2 text-sm text-slate-700">
          Its tools leave the assistant, and the names it held are freed: later apps may get their short names and tool names back.
        </p>
        {remove.isError && (
          <Alert inline className="mt-2">
            {errorMessage(remove.error, "The app could not be removed.")}
          </Alert>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() =>
              // A promise, not mutate's own callbacks: those are dropped when the row holding this button is gone, as it is once the list is fetched again.
              remove.mutateAsync(appId).then(
                () => {
                  dialog.current?.close();
                  onRemoved?.();
                },
                () => undefined, // said in the dialog (remove.isError)
              )
            }
          >
            {remove.isPending ? "Removing…" : "Remove app"}
          </Button>
        </div>
      </dialog>
    </>
  );
}
