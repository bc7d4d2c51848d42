// The demo's own MCP server (SDK McpServer + Streamable HTTP over node:http, stateless), typed for
// TypeScript callers: tests and scripts/bench-ui.ts serve apps of their own with it on loopback.
// It is plain JavaScript without declarations, hence the import by a computed path.

export interface ServedApp {
  url: string;
  close: () => Promise<void>;
}

export interface ServeMcpAppOptions {
  name: string;
  tools: object[];
  initializeDelayMs?: number;
  requireHeader?: { name: string; value: string };
  host?: string;
  port?: number;
}

interface DemoAppsModule {
  serveMcpApp: (options: ServeMcpAppOptions) => Promise<ServedApp>;
}

const modulePath = new URL("../scripts/demo-apps.mjs", import.meta.url).href;

export async function serveMcpApp(options: ServeMcpAppOptions): Promise<ServedApp> {
  const mod = (await import(/* webpackIgnore: true */ modulePath)) as DemoAppsModule;
  return mod.serveMcpApp({ host: "127.0.0.1", port: 0, ...options });
}
