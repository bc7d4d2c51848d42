import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AccountHeader } from "@/components/account/account-header";
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
        <Providers>
          <AccountHeader />
          <main id="main" className="mx-auto max-w-6xl px-4 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
