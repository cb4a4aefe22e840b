#!/usr/bin/env python3
"""A tiny USI engine for testing tools/usi_client.py.

It answers `go mate` with the stored solution for the positions it knows and `checkmate nomate`
for any other, after an `info` line with made-up nodes and nps. It checks the order of the
handshake (usi, setoption, isready, position, go) and exits with status 9 on a violation, so a
client that skips a step fails visibly.

Flags, to exercise the client's error handling:
  --die-after N    exit with status 7 on the (N+1)-th `go` instead of answering
  --ignore-time    never answer `go mate` by itself; answer `checkmate timeout` on `stop`
  --ignore-stop    with --ignore-time: do not answer `stop` either (a hung engine)
Option `FakeMate` (check, default true): false answers every `go mate` with
`checkmate notimplemented`.
"""

import sys

# Positions from problems/practical (shogimate, GPL-3.0; see the README here) with their mates.
KNOWN_MATES = {
    "l1g4ng/1k1s+R+P3/p2p2pP1/2s1B4/2bnp4/PR2P1P2/K1+p2PN2/3L4+l/Ls7 w 2GSPn6p 150": ["N*8e"],
    "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42": [
        "B*5g", "4h5h", "7i6i"],
}


def protocol_error(message):
    sys.stderr.write("fake_usi_engine: protocol error: %s\n" % message)
    sys.exit(9)


def main(argv):
    die_after = int(argv[argv.index("--die-after") + 1]) if "--die-after" in argv else None
    ignore_time = "--ignore-time" in argv
    ignore_stop = "--ignore-stop" in argv
    state = "start"  # start -> usi -> ready -> (position)
    options = {"FakeMate": "true"}
    sfen = None
    goes = 0
    waiting_for_stop = False

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "usi":
            send("id name FakeUsiEngine")
            send("id author tsume tests")
            send("option name FakeMate type check default true")
            send("usiok")
            state = "usi"
        elif command == "setoption":
            if state != "usi":
                protocol_error("setoption before usi or after isready")
            if len(words) < 5 or words[1] != "name" or words[3] != "value":
                protocol_error("malformed setoption: %s" % raw.strip())
            options[words[2]] = " ".join(words[4:])
        elif command == "isready":
            if state == "start":
                protocol_error("isready before usi")
            send("readyok")
            state = "ready"
        elif command == "usinewgame":
            if state != "ready":
                protocol_error("usinewgame before readyok")
        elif command == "position":
            if state != "ready":
                protocol_error("position before isready")
            if words[1:2] != ["sfen"] or len(words) < 6:
                protocol_error("expected 'position sfen <4 fields>': %s" % raw.strip())
            sfen = " ".join(words[2:6])
        elif command == "go":
            if sfen is None:
                protocol_error("go before position")
            if words[1:2] != ["mate"] or len(words) != 3:
                protocol_error("expected 'go mate <ms>|infinite': %s" % raw.strip())
            goes += 1
            if die_after is not None and goes > die_after:
                sys.exit(7)
            send("info depth 1 nodes %d nps %d" % (1000 * goes, 50000))
            if ignore_time:
                waiting_for_stop = True
            elif options.get("FakeMate") == "false":
                send("checkmate notimplemented")
            elif sfen in KNOWN_MATES:
                send("checkmate " + " ".join(KNOWN_MATES[sfen]))
            else:
                send("checkmate nomate")
        elif command == "stop":
            if waiting_for_stop and not ignore_stop:
                send("checkmate timeout")
                waiting_for_stop = False
        elif command == "quit":
            return 0
        else:
            protocol_error("unknown command %s" % command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
