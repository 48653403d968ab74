// Preloaded (`node --import`) into a process that must work without the network: the photo worker
// of the explicit-score tests, which must load its model and `.wasm` file from node_modules. Every
// way out (fetch, a socket, a DNS lookup) throws, and is written to the file named by
// LOCALBOARD_NETWORK_LOG too, so that the test sees an attempt even when the caller swallowed the
// error. Plain JavaScript: it runs before tsx is there.
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';

const log = process.env.LOCALBOARD_NETWORK_LOG;

function refuse(what) {
  if (log) appendFileSync(log, `${what}\n`);
  throw new Error(`no network in this process: ${what}`);
}

globalThis.fetch = async (input) => refuse(`fetch ${String(input?.url ?? input)}`);
net.Socket.prototype.connect = function connect(...args) {
  return refuse(`connect ${JSON.stringify(args[0])}`);
};
dns.lookup = (host) => refuse(`dns lookup ${host}`);
dns.promises.lookup = async (host) => refuse(`dns lookup ${host}`);
