import { Link } from "@/components/ui/link";

/** Any address the dashboard does not have: said plainly, with the ways on. */
export default function NotFound() {
  return (
    <div className="max-w-2xl space-y-3">
      <p className="text-sm font-medium text-indigo-800">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">There is no page at this address</h1>
      <p className="text-slate-700">The link may be old, or mistyped. From here you can go to your organisations, preview a listing, or read how the check works.</p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        <li>
          <Link href="/" className="text-indigo-800 underline hover:text-indigo-950">
            Your organisations
          </Link>
        </li>
        <li>
          <Link href="/preview" className="text-indigo-800 underline hover:text-indigo-950">
            Preview a listing
          </Link>
        </li>
        <li>
          <Link href="/help" className="text-indigo-800 underline hover:text-indigo-950">
            How the check works
          </Link>
        </li>
      </ul>
    </div>
  );
}
