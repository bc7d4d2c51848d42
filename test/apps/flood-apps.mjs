// Five hostile MCP apps on 127.0.0.1, run in a process of their own (lib/pool/flood.test.ts):
// each answers initialize, then tools/list with an endless stream of notifications, written as
// fast as the socket takes them. Prints the apps' URLs as one JSON line; stops with its parent.
import http from "node:http";
const one = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood"}}\n\n';
const batch = one.repeat(500);
const urls = [];
for (let i = 0; i < 5; i++) {
  const server = http.createServer(async (req, res) => {
    let body = ""; for await (const c of req) body += c;
    const msg = JSON.parse(body || "{}");
    if (msg.method === "initialize") { res.writeHead(200, {"content-type":"application/json","mcp-session-id":"s"}); res.end(JSON.stringify({jsonrpc:"2.0",id:msg.id,result:{protocolVersion:"2025-06-18",capabilities:{tools:{}},serverInfo:{name:"f",version:"1"}}})); return; }
    if (msg.method === "tools/list") { res.writeHead(200, {"content-type":"text/event-stream"}); const w = () => { while (!res.destroyed && res.write(batch)); if (!res.destroyed) res.once("drain", w); }; w(); return; }
    if (req.method === "GET") { res.writeHead(405); res.end(); return; }
    res.writeHead(202); res.end();
  });
  await new Promise(r => server.listen(0, "127.0.0.1", r));
  urls.push(`http://127.0.0.1:${server.address().port}/mcp`);
}
console.log(JSON.stringify(urls));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
setTimeout(() => process.exit(0), 60_000).unref();
