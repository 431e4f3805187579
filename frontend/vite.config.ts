import { fileURLToPath, URL } from "node:url";
import { defineConfig } from "vitest/config";

// JSX goes through esbuild's automatic runtime: @vitejs/plugin-react does not install here,
// and nothing in this app needs Fast Refresh to work.
const apiPort = process.env.BENCHDASH_API_PORT ?? "8000";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  esbuild: { jsx: "automatic" },
  server: {
    proxy: {
      "/api": { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      "/readyz": { target: `http://127.0.0.1:${apiPort}` },
      "/healthz": { target: `http://127.0.0.1:${apiPort}` },
    },
  },
  build: {
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // Libraries mark modules "use client" for React Server Components; irrelevant in a SPA bundle.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "lint/**/*.test.ts"],
    setupFiles: ["src/test/setup.ts"],
  },
});
