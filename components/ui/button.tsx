import { cva, type VariantProps } from "class-variance-authority";
import type { ButtonHTMLAttributes } from "react";
import { cn } from "@/lib/cn";

const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-indigo-700 px-4 py-2 text-white hover:bg-indigo-800",
        secondary: "border border-slate-300 bg-white px-4 py-2 text-slate-900 hover:bg-slate-50",
        danger: "border border-rose-300 bg-white px-3 py-1.5 text-rose-800 hover:bg-rose-50",
        ghost: "px-2 py-1 text-indigo-800 hover:bg-indigo-50",
      },
    },
    defaultVariants: { variant: "primary" },
  },
);

export function Button({
  className,
  variant,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & VariantProps<typeof buttonVariants>) {
  return <button type={type} className={cn(buttonVariants({ variant }), className)} {...props} />;
}
