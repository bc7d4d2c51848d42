"use client";

import { useState } from "react";
import { Button } from "./button";

/**
 * Copies `text` to the clipboard and says so; `label` names what is copied for a screen reader.
 * `compact` is the small one beside a name in a table row.
 */
export function CopyButton({ text, label, compact = false }: { text: string; label: string; compact?: boolean }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <span className="inline-flex items-center gap-2 font-sans">
      <Button
        variant={compact ? "ghost" : "secondary"}
        className={compact ? "px-1.5 py-0.5 text-xs" : "px-3 py-1.5"}
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        Copy<span className="sr-only"> {label}</span>
      </Button>
      <span role="status" className={compact ? "text-xs text-slate-700" : "text-sm text-slate-700"}>
        {state === "copied" ? "Copied." : state === "failed" ? "Could not copy: select the text and copy it." : ""}
      </span>
    </span>
  );
}
