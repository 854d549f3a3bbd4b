#!/usr/bin/env node
// A complete troyka agent in JavaScript: it plays a uniformly random legal move.
//
// It speaks the troyka agent protocol, version 1 (docs/protocol.md), with the zeromq package: a
// DEALER socket, one JSON object per single-frame message. Every move request lists the legal
// moves, so this agent needs no game engine at all.
//
//     npm ci --prefix examples/node && node examples/node/agent.mjs --connect tcp://localhost:5555 --name js
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Dealer } from "zeromq";

const PROTOCOL = 1;
// Refusals that saying hello again would not change.
const FATAL_ERRORS = new Set(["unsupported_protocol", "invalid_name", "not_entered", "already_registered", "key_mismatch"]);

// mulberry32: a small seeded generator, so that --seed gives a repeatable stream of choices.
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The keys of a ZeroMQ certificate file (troyka keygen, pyzmq's zmq.auth): public and secret, Z85.
function readCertificate(path) {
  const key = (name) => readFileSync(path, "utf8").match(new RegExp(`^\\s*${name}\\s*=\\s*"(.{40})"`, "m"))?.[1];
  return { publicKey: key("public-key"), secretKey: key("secret-key") };
}

class Agent {
  constructor(endpoint, name, random, curve) {
    this.endpoint = endpoint;
    this.name = name;
    this.random = random;
    this.curve = curve; // for a referee with --curve-keys: its public key and our pair
    this.socket = null;
    this.session = null; // the secret of our welcome: it lets us reconnect at once
    this.registered = false;
    this.heartbeat = 1000; // ms; the welcome says the referee's values
    this.grace = 5000;
    this.lastSent = this.lastHeard = Date.now();
  }

  connect() {
    this.socket?.close();
    this.socket = new Dealer({ linger: 0 });
    if (this.curve) {
      this.socket.curveServerKey = this.curve.serverKey;
      this.socket.curvePublicKey = this.curve.publicKey;
      this.socket.curveSecretKey = this.curve.secretKey;
    }
    this.socket.connect(this.endpoint);
    this.registered = false;
    this.lastHeard = Date.now();
    return this.hello();
  }

  async send(message) {
    this.lastSent = Date.now();
    await this.socket.send(JSON.stringify(message));
  }

  hello() {
    const hello = { type: "hello", protocol: PROTOCOL, name: this.name, version: "agent.mjs 1" };
    if (this.session) hello.session = this.session;
    return this.send(hello);
  }

  // Plays until the referee says bye (exit code 0) or refuses us (1).
  async run() {
    await this.connect();
    for (;;) {
      const wait = Math.min(this.lastSent + this.heartbeat, this.lastHeard + this.grace) - Date.now();
      this.socket.receiveTimeout = Math.max(1, wait);
      try {
        const [frame] = await this.socket.receive();
        this.lastHeard = Date.now();
        const code = await this.handle(JSON.parse(frame.toString("utf8")));
        if (code !== undefined) return code;
      } catch (error) {
        if (error.code !== "EAGAIN") throw error; // EAGAIN: nothing came in time
      }
      const now = Date.now();
      if (now - this.lastHeard > this.grace) {
        console.error(`${this.name}: the referee is silent; connecting again`);
        await this.connect();
      } else if (now - this.lastSent >= this.heartbeat) {
        await (this.registered ? this.send({ type: "heartbeat" }) : this.hello());
      }
    }
  }

  async handle(message) {
    switch (message.type) {
      case "welcome":
        this.registered = true;
        this.session = message.session;
        this.heartbeat = message.heartbeat_ms;
        this.grace = message.grace_ms;
        break;
      case "move_request": {
        const move = message.legal[Math.floor(this.random() * message.legal.length)];
        await this.send({ type: "move", match: message.match, ply: message.ply, move });
        break;
      }
      case "match_end":
        console.error(`${this.name}: match ${message.match}: ${message.you} (${message.reason})`);
        break;
      case "error":
        console.error(`${this.name}: referee error ${message.code}: ${message.message}`);
        if (FATAL_ERRORS.has(message.code)) return 1;
        if (message.code === "not_registered" && this.registered) {
          this.registered = false; // the referee restarted
          await this.hello(); // once: while not registered, the loop says hello every heartbeat
        }
        break;
      case "bye":
        return 0;
      default: // match_start and heartbeat need nothing from a random agent
    }
    return undefined;
  }
}

function main() {
  const usage = "usage: agent.mjs --connect ADDRESS --name NAME [--seed S] [--curve-server-key FILE --curve-key FILE]";
  let options;
  try {
    ({ values: options } = parseArgs({
      options: {
        connect: { type: "string" },
        name: { type: "string" },
        seed: { type: "string" },
        "curve-server-key": { type: "string" },
        "curve-key": { type: "string" },
      },
    }));
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  if (!options.connect || !options.name) {
    console.error(usage);
    process.exit(2);
  }
  if ((options["curve-server-key"] === undefined) !== (options["curve-key"] === undefined)) {
    console.error(`--curve-server-key and --curve-key go together\n${usage}`);
    process.exit(2);
  }
  let curve = null;
  if (options["curve-key"]) {
    const own = readCertificate(options["curve-key"]);
    if (!own.secretKey) {
      console.error(`${options["curve-key"]} holds no secret key: give the NAME.key_secret file`);
      process.exit(2);
    }
    curve = { serverKey: readCertificate(options["curve-server-key"]).publicKey, ...own };
  }
  const random = options.seed === undefined ? Math.random : seededRandom(Number(options.seed));
  const agent = new Agent(options.connect, options.name, random, curve);
  agent.run().then((code) => {
    agent.socket.close();
    process.exit(code);
  });
}

main();
