import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Connections · Theorem", template: "%s · Theorem Connections" },
  description: "How Theorem names, asks for and sizes the tools of the apps you connect.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <Link href="/" className="font-semibold text-slate-900">
              Theorem <span className="text-indigo-700">Connections</span>
            </Link>
            <Link href="/orgs/demo/connections" className="text-sm text-slate-700 hover:text-indigo-700 hover:underline">
              Connections
            </Link>
            <Link href="/preview" className="text-sm text-slate-700 hover:text-indigo-700 hover:underline">
              Preview a listing
            </Link>
          </nav>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-6xl px-4 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
