import { formatCount, largestSummary, tieWords } from "@/lib/engine/listing-size";
import type { ListingSize } from "@/lib/schemas/check";
import { cn } from "@/lib/cn";
import { listingSizeWords } from "@/components/connections/format";

/** The listing's size against its bound, naming the largest tools; `sizes` (every tool's) tells when they tie, so none is named arbitrarily. */
export function SizeMeter({ listing, sizes }: { listing: ListingSize; sizes?: readonly number[] }) {
  const { named, tie } = sizes === undefined ? { named: listing.largest, tie: null } : largestSummary(listing.largest, sizes);
  const share = listing.limit > 0 ? listing.chars / listing.limit : 0;
  const over = listing.chars > listing.limit || listing.stopped;
  // Reading stopped past the bound: the count is where it stopped, not the listing's size, so no share of the bound is claimed.
  const said = listing.stopped ? listingSizeWords(listing) : `${formatCount(listing.chars)} of ${formatCount(listing.limit)} characters (${(share * 100).toFixed(1)}%)`;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        {/* SPEC §21: the listing as the app gave it, not the tools as the assistant is sent them. */}
        <span className="font-medium text-slate-800">Listing size, as listed</span>
        <span className={cn(over ? "font-semibold text-rose-800" : "text-slate-700")}>
          {said}
        </span>
      </div>
      <div
        role="meter"
        aria-label="Listing size"
        aria-valuemin={0}
        aria-valuemax={listing.limit}
        aria-valuenow={Math.min(listing.chars, listing.limit)}
        aria-valuetext={said}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={cn("h-full", over ? "bg-rose-600" : share > 0.8 ? "bg-amber-500" : "bg-emerald-600")} style={{ width: `${Math.min(100, share * 100)}%` }} />
      </div>
      {listing.largest.length > 0 && (
        <div className="text-sm text-slate-700" data-testid="largest-tools">
          <span>Largest tools: </span>
          <ol className="inline">
            {named.map((t, i) => (
              <li key={t.index} className="inline">
                <span className="font-mono">{t.name ?? `entry ${t.index + 1}`}</span> ({formatCount(t.chars)})
                {i < named.length - 1 ? ", " : ""}
              </li>
            ))}
          </ol>
          {tie !== null && `${named.length > 0 ? ", then " : ""}${tieWords(tie)}.`}
        </div>
      )}
    </div>
  );
}
