// Stands in for `server-only` under Vitest: the real package throws outside a React Server build.
export {};
