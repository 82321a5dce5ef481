// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // client-node and better-sqlite3 stay external: they are Node-only, and bundling them costs
  // build memory (docs/toolchain.md, trap 11).
  // prom-client too: one copy in node_modules, so every bundle records into the same registry.
  serverExternalPackages: ['@kubernetes/client-node', 'better-sqlite3', 'prom-client'],
  // The image runs .next/standalone/server.js (Dockerfile); `next start` serves the same build.
  output: 'standalone',
  // A separate build directory per running instance (NEXT_DIST_DIR) lets several copies run side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // Browsers still ask for /favicon.ico now and then (a page whose head has not streamed yet, a JSON
  // answer opened in a tab); the app's icon answers it rather than a 404 in the console.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

module.exports = nextConfig;
