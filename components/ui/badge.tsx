import { cva, type VariantProps } from "class-variance-authority";
import type { HTMLAttributes } from "react";
import { cn } from "@/lib/cn";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium",
  {
    variants: {
      tone: {
        green: "border-emerald-300 bg-emerald-50 text-emerald-900",
        amber: "border-amber-300 bg-amber-50 text-amber-900",
        blue: "border-sky-300 bg-sky-50 text-sky-900",
        red: "border-rose-300 bg-rose-50 text-rose-900",
        slate: "border-slate-300 bg-slate-100 text-slate-800",
        violet: "border-violet-300 bg-violet-50 text-violet-900",
      },
    },
    defaultVariants: { tone: "slate" },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

export function Badge({ className, tone, ...props }: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
