import type { ComponentPropsWithRef, ReactNode } from "react";
import { cn } from "@/lib/cn";

/** The look of a form's text inputs, red-edged while `aria-invalid`. */
export const fieldClass = "mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-rose-600";

/** A field's error message, named by `id` so the input can point at it (`aria-describedby`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} className="mt-1 text-sm text-rose-800">
      {message}
    </p>
  );
}

type TextFieldProps = Omit<ComponentPropsWithRef<"input">, "id" | "className" | "prefix" | "children" | "aria-invalid" | "aria-describedby"> & {
  /** The input's id; its hint and error are `${id}-hint` and `${id}-error`. */
  id: string;
  label: ReactNode;
  /** The message shown under the input (react-hook-form's `errors.x?.message`), which also marks it invalid. */
  error: string | undefined;
  /** A line under the input saying what it takes, always read with it. */
  hint?: ReactNode;
  /** Text shown before the input, not read out (the `/orgs/` of an address). */
  prefix?: ReactNode;
  /** Ids of more text about the input, read after its error: a refusal said below the form. */
  describedBy?: string;
  /** Invalid for a reason said elsewhere (with `describedBy`), not by `error`. */
  invalid?: boolean;
  /** The wrapper's classes (its place in the form's grid). */
  className?: string;
  inputClassName?: string;
  /** Shown under the error: what the value typed will do. */
  children?: ReactNode;
};

/**
 * A labelled text input with its hint and error, wired for screen readers: the label names it,
 * `aria-describedby` points at the hint, the error and `describedBy`, in that order. The rest of
 * the props go to the `<input>` (`{...form.register("email")}` included).
 */
export function TextField({ id, label, error, hint, prefix, describedBy, invalid = false, className, inputClassName, children, ...input }: TextFieldProps) {
  const described = [hint !== undefined ? `${id}-hint` : "", error !== undefined ? `${id}-error` : "", describedBy ?? ""].join(" ").trim();
  const control = (
    <input
      id={id}
      className={cn(fieldClass, inputClassName)}
      aria-invalid={error !== undefined || invalid}
      aria-describedby={described === "" ? undefined : described}
      {...input}
    />
  );
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {prefix === undefined ? (
        control
      ) : (
        <div className="flex items-baseline gap-1">
          <span className="shrink-0 text-sm text-slate-600" aria-hidden="true">
            {prefix}
          </span>
          {control}
        </div>
      )}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
      {children}
    </div>
  );
}
