"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies `text` to the clipboard and says so; `label` names what is copied for a screen reader. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        className="px-3 py-1.5"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        Copy<span className="sr-only"> {label}</span>
      </Button>
      <span role="status" className="text-sm text-slate-700">
        {state === "copied" ? "Copied." : state === "failed" ? "Could not copy: select the text and copy it." : ""}
      </span>
    </span>
  );
}
