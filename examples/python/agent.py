#!/usr/bin/env python3
"""A complete troyka agent in Python: it plays a uniformly random legal move.

It speaks the troyka agent protocol, version 1 (docs/protocol.md), with pyzmq: a DEALER socket,
one JSON object per single-frame message. Every move request lists the legal moves, so this agent
needs no game engine at all.

    python3 examples/python/agent.py --connect tcp://localhost:5555 --name py-random
"""

import argparse
import json
import random
import sys
import time

import zmq
import zmq.auth

PROTOCOL = 1
# Refusals that saying hello again would not change.
FATAL_ERRORS = {"unsupported_protocol", "invalid_name", "not_entered", "already_registered", "key_mismatch"}


class Agent:
    def __init__(self, endpoint, name, seed, curve=None):
        self.endpoint = endpoint
        self.name = name
        self.curve = curve  # (referee's public key, our public key, our secret key) for a CURVE referee
        self.random = random.Random(seed)
        self.context = zmq.Context()
        self.socket = None
        self.session = None  # the secret of our welcome: it lets us reconnect at once
        self.registered = False
        self.heartbeat = 1.0  # seconds; the welcome says the referee's values
        self.grace = 5.0
        self.last_sent = self.last_heard = time.monotonic()

    def connect(self):
        if self.socket is not None:
            self.socket.close(linger=0)
        self.socket = self.context.socket(zmq.DEALER)
        if self.curve:
            self.socket.curve_serverkey, self.socket.curve_publickey, self.socket.curve_secretkey = self.curve
        self.socket.connect(self.endpoint)
        self.registered = False
        self.last_heard = time.monotonic()
        self.hello()

    def send(self, message):
        self.socket.send(json.dumps(message).encode("utf-8"))
        self.last_sent = time.monotonic()

    def hello(self):
        hello = {"type": "hello", "protocol": PROTOCOL, "name": self.name, "version": "agent.py 1"}
        if self.session:
            hello["session"] = self.session
        self.send(hello)

    def run(self):
        """Plays until the referee says bye (exit code 0) or refuses us (1)."""
        self.connect()
        while True:
            wait = max(0.0, min(self.last_sent + self.heartbeat, self.last_heard + self.grace) - time.monotonic())
            if self.socket.poll(timeout=wait * 1000):
                self.last_heard = time.monotonic()
                code = self.handle(json.loads(self.socket.recv().decode("utf-8")))
                if code is not None:
                    return code
            now = time.monotonic()
            if now - self.last_heard > self.grace:
                print(f"{self.name}: the referee is silent; connecting again", file=sys.stderr)
                self.connect()
            elif now - self.last_sent >= self.heartbeat and self.registered:
                self.send({"type": "heartbeat"})
            elif now - self.last_sent >= self.heartbeat:
                self.hello()  # not welcomed yet: the referee may not be up

    def handle(self, message):
        kind = message.get("type")
        if kind == "welcome":
            self.registered = True
            self.session = message["session"]
            self.heartbeat = message["heartbeat_ms"] / 1000
            self.grace = message["grace_ms"] / 1000
        elif kind == "move_request":
            move = self.random.choice(message["legal"])
            self.send({"type": "move", "match": message["match"], "ply": message["ply"], "move": move})
        elif kind == "match_end":
            print(f"{self.name}: match {message['match']}: {message['you']} ({message['reason']})", file=sys.stderr)
        elif kind == "error":
            print(f"{self.name}: referee error {message['code']}: {message['message']}", file=sys.stderr)
            if message["code"] in FATAL_ERRORS:
                return 1
            if message["code"] == "not_registered" and self.registered:  # the referee restarted
                self.registered = False
                self.hello()  # once: while not registered, the loop says hello every heartbeat
        elif kind == "bye":
            return 0
        return None  # match_start and heartbeat need nothing from a random agent


def main():
    parser = argparse.ArgumentParser(description="A troyka agent that plays a random legal move.")
    parser.add_argument("--connect", required=True, help="the referee's address, e.g. tcp://localhost:5555")
    parser.add_argument("--name", required=True, help="the name to play under")
    parser.add_argument("--seed", type=int, default=None, help="seed the random choices")
    parser.add_argument("--curve-server-key", help="for a CURVE referee: its public key file (referee.key)")
    parser.add_argument("--curve-key", help="for a CURVE referee: our key pair (NAME.key_secret, troyka keygen)")
    args = parser.parse_args()
    if (args.curve_server_key is None) != (args.curve_key is None):
        parser.error("--curve-server-key and --curve-key go together")
    curve = None
    if args.curve_key:
        server_public, _ = zmq.auth.load_certificate(args.curve_server_key)
        public, secret = zmq.auth.load_certificate(args.curve_key)
        if secret is None:
            parser.error(f"{args.curve_key} holds no secret key: give the NAME.key_secret file")
        curve = (server_public, public, secret)
    sys.exit(Agent(args.connect, args.name, args.seed, curve).run())


if __name__ == "__main__":
    main()
