import { readFileSync } from "node:fs";
import http from "node:http";
import compression from "compression";
import express from "express";

// The floor for the landing: a plain Express route sending the landing's bytes (the file argv[2]),
// in a process of its own as the app's server is, so neither shares a CPU with the load generator.
// /compressed is the same route behind compression() for every request.
const landing = readFileSync(process.argv[2]!, "utf8");
const plain = express();
plain.disable("x-powered-by");
plain.get("/", (_req, res) => res.type("html").send(landing));
plain.get("/compressed", compression(), (_req, res) => res.type("html").send(landing));
const server = http.createServer(plain);
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as { port: number }).port }) + "\n");
});
