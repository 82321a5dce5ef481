// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 stays external: a native module, which a bundle cannot hold. prom-client too: one copy in
  // node_modules, so every bundle records into the same registry. client-node is bundled: loaded from node_modules it
  // is ~900 ES modules whose sources V8 keeps for as long as the process runs (22 MiB of heap, docs/toolchain.md,
  // trap 11); bundled, only what the server imports is kept, at ~0.5 GB more memory for the build.
  serverExternalPackages: ['better-sqlite3', 'prom-client'],
  // The image runs .next/standalone/server.js (Dockerfile); `next start` serves the same build.
  output: 'standalone',
  // A separate build directory per running instance (NEXT_DIST_DIR) lets several copies run side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  compiler: {
    // The server's chunks rewritten so that V8 keeps their sources one byte a character (scripts/one-byte-chunks.mjs):
    // one arrow in a message made a whole chunk a two-byte string, 4.5 MiB more heap for as long as the server runs.
    // Imported here, not at the top: the config is read at run time too, where the build's tools are not installed.
    async runAfterProductionCompile(metadata) {
      const { afterProductionCompile } = await import('./scripts/one-byte-chunks.mjs');
      await afterProductionCompile(metadata);
    },
  },
  reactStrictMode: true,
  typedRoutes: false,
  // Browsers still ask for /favicon.ico now and then (a page whose head has not streamed yet, a JSON
  // answer opened in a tab); the app's icon answers it rather than a 404 in the console.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

module.exports = nextConfig;
