import type { ReactNode } from "react";

/** A table's head row: one column header per entry (hidden on a phone, where rows stack). */
export function TableHead({ columns }: { columns: { key: string; label: ReactNode }[] }) {
  return (
    <thead className="bg-slate-50 text-slate-700 max-sm:sr-only">
      <tr>
        {columns.map((c) => (
          <th key={c.key} scope="col" className="px-3 py-2 font-medium">
            {c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
