export interface McpAppOptions {
  name: string;
  tools: object[];
  initializeDelayMs?: number;
  requireHeader?: { name: string; value: string };
  host?: string;
  port?: number;
}
export interface ServedApp {
  url: string;
  close: () => Promise<void>;
}
export function serveMcpApp(options: McpAppOptions): Promise<ServedApp>;

export interface DemoAppDefinition {
  key: string;
  name: string;
  tools: object[];
  initializeDelayMs?: number;
}
export const DEMO_APPS: DemoAppDefinition[];
export function startDemoApps(host?: string): Promise<{ apps: { key: string; name: string; url: string }[]; close: () => Promise<void> }>;
