import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, URL } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

// The API docs page (/api/docs, served by the backend) loads Swagger UI from our own origin: the
// pinned swagger-ui-dist package is copied into dist/swagger-ui/, so no CDN is asked and the
// Content-Security-Policy can allow scripts from 'self' only.
const SWAGGER_UI_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"];

function swaggerUi(): Plugin {
  const dir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return {
    name: "benchdash-swagger-ui",
    apply: "build",
    generateBundle() {
      for (const file of SWAGGER_UI_FILES)
        this.emitFile({
          type: "asset",
          fileName: `swagger-ui/${file}`,
          source: readFileSync(path.join(dir, file)),
        });
    },
  };
}

// JSX goes through esbuild's automatic runtime: @vitejs/plugin-react does not install here,
// and nothing in this app needs Fast Refresh to work.
const apiPort = process.env.BENCHDASH_API_PORT ?? "8000";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  esbuild: { jsx: "automatic" },
  plugins: [swaggerUi()],
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
