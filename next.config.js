/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Each developer or test run may build into its own folder (NEXT_DIST_DIR) so that builds never collide.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  // piscina starts worker threads from a file of its own (lib/check/engine-pool.ts): not bundled either.
  serverExternalPackages: ["better-sqlite3", "piscina"],
  // `npm test` runs `tsc --noEmit` before it builds (scripts/run-tests.mjs): its build skips the
  // second check of the same types. Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.THEOREM_TYPES_CHECKED === "1" },
  experimental: {
    // The proxy (proxy.ts) sees every request first and would cut bodies at 10 MB; the routes
    // take up to 32 MiB and answer 413 past it (lib/api/body.ts), so the proxy lets a little more through.
    proxyClientMaxBodySize: "33mb",
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

/**
 * What only `next build` changes (`npm run dev` keeps Next's defaults):
 * - no source maps of the server's code: `next start` never reads them (only a Node started with
 *   --enable-source-maps would), and making them was most of the build's CPU (a build took 251
 *   core-seconds with them, 79–103 without them and the cache below, on two cores);
 * - no build cache on disk: only a later build of the same folder reads it, and
 *   scripts/build-app.mjs builds a folder once per change of sources (a fresh clone: once), while
 *   writing its 210 MB took 10 s of every build.
 */
const buildOnly = { turbopackSourceMaps: false, turbopackFileSystemCacheForBuild: false };

export default function config(phase) {
  // "phase-production-build" is next/constants' PHASE_PRODUCTION_BUILD.
  if (phase !== "phase-production-build") return nextConfig;
  return { ...nextConfig, experimental: { ...nextConfig.experimental, ...buildOnly } };
}
