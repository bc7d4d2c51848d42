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
