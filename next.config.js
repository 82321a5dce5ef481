// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // client-node and better-sqlite3 stay external: they are Node-only, and bundling them costs
  // build memory (STACK.md, trap 11).
  serverExternalPackages: ['@kubernetes/client-node', 'better-sqlite3'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

module.exports = nextConfig;
