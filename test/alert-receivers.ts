import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { createServer, type Server, type Socket } from "node:net";

// What the alert tests deliver to (SPEC §28), each on loopback: an SMTP sink and a webhook receiver.

export interface SmtpSink {
  url: string;
  /** Each message's whole DATA, once answered 250. */
  messages: string[];
  /** Each DATA received, answered or not. */
  received: string[];
  /** While true, a DATA is received and never answered (a send under way). */
  hold: boolean;
  close(): Promise<void>;
}

/** A tiny SMTP server on loopback: the messages it is given, each its whole DATA. */
export async function smtpSink(): Promise<SmtpSink> {
  const sockets = new Set<Socket>();
  const sink: SmtpSink = { url: "", messages: [], received: [], hold: false, close: async () => {} };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let inData = false;
    socket.write("220 sink ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          const data = buffer.slice(0, end);
          sink.received.push(data);
          buffer = buffer.slice(end + 5);
          inData = false;
          if (sink.hold) return;
          sink.messages.push(data);
          socket.write("250 queued\r\n");
          continue;
        }
        const line = buffer.indexOf("\r\n");
        if (line === -1) return;
        const command = buffer.slice(0, line).toUpperCase();
        buffer = buffer.slice(line + 2);
        if (command.startsWith("EHLO")) socket.write("250-sink\r\n250 8BITMIME\r\n");
        else if (command.startsWith("DATA")) {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (command.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  sink.url = `smtp://127.0.0.1:${address.port}`;
  sink.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return sink;
}

export interface HookReceiver {
  url: string;
  /** Each request's headers and body, answered or not. */
  got: { headers: IncomingHttpHeaders; body: string }[];
  /** While true, a request is received and never answered (a delivery under way). */
  hold: boolean;
  close(): Promise<void>;
}

/** A webhook receiver on loopback: each request's headers and body; the first `failFirst` are answered 500, the rest 204. */
export async function hookReceiver(failFirst = 0): Promise<HookReceiver> {
  const receiver: HookReceiver = { url: "", got: [], hold: false, close: async () => {} };
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      receiver.got.push({ headers: req.headers, body });
      if (receiver.hold) return;
      res.writeHead(receiver.got.length <= failFirst ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** The Standard Webhooks headers of a request, as `Webhook.verify` takes them. */
export const webhookHeaders = (headers: IncomingHttpHeaders) => ({ "webhook-id": String(headers["webhook-id"]), "webhook-timestamp": String(headers["webhook-timestamp"]), "webhook-signature": String(headers["webhook-signature"]) });
