import type { ReactNode } from "react";
import { cn } from "@/lib/cn";
import { ApiRequestError } from "@/lib/queries/api";

/** What a failed request says to the person: the API's own sentence, else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError ? error.message : fallback;
}

const BOX = {
  error: "border-rose-300 bg-rose-50 text-rose-950",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
};

/**
 * A failure said where it happened, announced to screen readers: a box with an optional
 * heading, or (`inline`) one line beside the control that failed.
 */
export function Alert({
  title,
  tone = "error",
  inline = false,
  id,
  className,
  children,
}: {
  title?: string;
  tone?: keyof typeof BOX;
  inline?: boolean;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  if (inline) {
    return (
      <p id={id} role="alert" className={cn("text-sm text-rose-800", className)}>
        {children}
      </p>
    );
  }
  return (
    <div id={id} role="alert" className={cn("rounded-lg border p-3 text-sm", BOX[tone], className)}>
      {title === undefined ? children : (
        <>
          <p className="font-semibold">{title}</p>
          <div className="mt-1">{children}</div>
        </>
      )}
    </div>
  );
}
