#!/usr/bin/env python3
"""Runs mate problems through any USI engine that implements `go mate`.

usage: usi_client.py --engine CMD [--engine-arg ARG ...] [--time-ms N]
                     [--option NAME=VALUE ...] [--json] [--grace-ms N] FILE

FILE holds one problem a line ('-' reads stdin): a bare SFEN ("sfen " / "position sfen "
prefixes are accepted, a missing move number is taken as 1), or the practical format
"<4 SFEN fields> moves m1 ... mN", where N moves give the expected mate length. '#' starts a
comment. The client does usi/usiok, one setoption per --option, isready/readyok, usinewgame,
then per problem `position sfen ...` and `go mate <time-ms>`, and reads up to the
`checkmate ...` answer. A problem without an answer after time-ms plus the grace period gets
`stop`; an engine that still does not answer, or that exits, ends the run.

Text output: one line per problem (index, result, expected length, client-measured time) and a
summary. With --json, one JSON object per problem in the `tsume batch` results format, so
`tsume report` can summarise and compare engines; the summary then goes to stderr.

Exit status: 0 all answers agree with the stated lengths, 1 some mate length or nomate
contradicts them, 2 bad usage or input, 3 the engine failed (could not start, exited, hung).
"""

import argparse
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_ENGINE = 0, 1, 2, 3
# How long the handshake (usiok, readyok) may take: engines may allocate big tables on isready.
HANDSHAKE_TIMEOUT_S = 60.0


class InputError(Exception):
    """A problem file line that is not a position."""


class EngineError(Exception):
    """The engine exited, hung or could not be started."""


class Problem:
    def __init__(self, index, line_number, sfen, expected_length):
        self.index = index
        self.line_number = line_number
        self.sfen = sfen
        self.expected_length = expected_length


def parse_problem_line(text):
    """Returns (sfen, expected_length or None) for one non-comment line."""
    tokens = text.split()
    if tokens[:2] == ["position", "sfen"]:
        tokens = tokens[2:]
    elif tokens[:1] == ["sfen"]:
        tokens = tokens[1:]
    expected = None
    if "moves" in tokens:
        at = tokens.index("moves")
        expected = len(tokens) - at - 1
        tokens = tokens[:at]
        if expected == 0:
            expected = None
    if len(tokens) == 3:
        tokens.append("1")
    if len(tokens) != 4:
        raise InputError("expected an SFEN of 3 or 4 fields, got %d field(s)" % len(tokens))
    board, side, hand, ply = tokens
    if board.count("/") != 8:
        raise InputError("SFEN board must have 9 ranks separated by '/', got '%s'" % board)
    if side not in ("b", "w"):
        raise InputError("SFEN side to move must be 'b' or 'w', got '%s'" % side)
    if not ply.isdigit():
        raise InputError("SFEN move number must be a number, got '%s'" % ply)
    return " ".join(tokens), expected


def read_problems(path):
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    problems = []
    with stream:
        for line_number, raw in enumerate(stream, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                sfen, expected = parse_problem_line(text)
            except InputError as e:
                raise InputError("%s:%d: %s" % (path, line_number, e)) from None
            problems.append(Problem(len(problems) + 1, line_number, sfen, expected))
    return problems


class Engine:
    """A USI engine subprocess with a reader thread, so every wait can time out."""

    def __init__(self, argv):
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                encoding="utf-8", errors="replace")
        except OSError as e:
            raise EngineError("cannot start engine %s: %s" % (shlex.join(argv), e.strerror))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # end of output: the engine exited or closed stdout

    def send(self, command):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(self._exit_message("while sending '%s'" % command))

    def read_line(self, deadline):
        """The next line, or None on timeout. Raises EngineError when the engine has exited."""
        remaining = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # keep reporting the end to later readers
            raise EngineError(self._exit_message(""))
        return line

    def wait_for(self, token, timeout_s, context):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            line = self.read_line(deadline)
            if line is not None and line.split()[:1] == [token]:
                return
        raise EngineError("engine did not answer %s within %.0f s" % (context, timeout_s))

    def _exit_message(self, when):
        try:
            code = self.proc.wait(timeout=2)
            status = "exited with status %d" % code
        except subprocess.TimeoutExpired:
            status = "closed its output"
        return "engine %s%s" % (status, " " + when if when else "")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


def parse_info(line):
    """Numeric fields of an `info` line (depth, nodes, nps, time, ...)."""
    tokens = line.split()[1:]
    info = {}
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key in ("string", "pv"):
            break  # the rest of the line is free text or moves
        if i + 1 < len(tokens) and tokens[i + 1].lstrip("-").isdigit():
            info[key] = int(tokens[i + 1])
            i += 2
        else:
            i += 1
    return info


def solve(engine, problem, time_ms, grace_s):
    """Sends one problem; returns a dict with the answer and the measured time."""
    engine.send("position sfen " + problem.sfen)
    start = time.monotonic()
    engine.send("go mate %d" % time_ms if time_ms > 0 else "go mate infinite")
    guard = start + (time_ms / 1000.0 if time_ms > 0 else float("inf")) + grace_s
    last_info = ""
    stopped = False
    while True:
        line = engine.read_line(guard)
        if line is None:
            if stopped:
                raise EngineError("engine did not answer 'stop' within %.1f s" % grace_s)
            engine.send("stop")
            stopped = True
            guard = time.monotonic() + grace_s
            continue
        words = line.split()
        if words[:1] == ["info"]:
            last_info = line
        elif words[:1] == ["checkmate"]:
            elapsed_ms = (time.monotonic() - start) * 1000.0
            answer = words[1:]
            break
    result = {"time_ms": elapsed_ms, "info": last_info, "stopped": stopped, "moves": []}
    if answer == ["nomate"]:
        result["result"] = "nomate"
    elif answer == ["timeout"] or not answer:
        result["result"] = "timeout"
    elif answer == ["notimplemented"]:
        result["result"] = "notimplemented"
    else:
        result["result"] = "mate"
        result["moves"] = answer
    return result


def describe(result):
    if result["result"] == "mate":
        return "mate %d" % len(result["moves"])
    return result["result"]


def matches(problem, result):
    """True/False when a length was stated and the engine gave a definite answer, else None."""
    if problem.expected_length is None:
        return None
    if result["result"] == "mate":
        return len(result["moves"]) == problem.expected_length
    if result["result"] == "nomate":
        return False
    return None


def batch_record(path, problem, result):
    """One line in the `tsume batch` results format."""
    info = parse_info(result["info"]) if result["info"] else {}
    usi = result["result"]
    record = {
        "id": "%s:%d" % (os.path.basename(path), problem.line_number),
        "source": "%s:%d" % (path, problem.line_number),
        "sfen": problem.sfen,
        "expected_length": problem.expected_length,
        "expected": "mate" if problem.expected_length is not None else None,
        "result": {"mate": "mate", "nomate": "nomate", "timeout": "unknown"}.get(usi, "error"),
        "length": len(result["moves"]),
        "match": matches(problem, result),
        "nodes": info.get("nodes", 0),
        "time_ms": round(result["time_ms"], 3),
        "nps": info.get("nps", 0),
        "moves": result["moves"],
        "usi_result": usi,
    }
    if usi == "timeout":
        record["limit"] = "stopped" if result["stopped"] else "time"
    if usi == "notimplemented":
        record["error"] = "engine answered checkmate notimplemented"
    return record


def summary_text(records):
    times = [r["time_ms"] for r in records]
    solved = sum(1 for r in records if r["result"] == "mate")
    matched = sum(1 for r in records if r["match"] is True)
    mean = sum(times) / len(times) if times else 0.0
    return "problems %d  solved %d  matches %d  mean %.1f ms  max %.1f ms" % (
        len(records), solved, matched, mean, max(times) if times else 0.0)


def parse_args(argv):
    # Engine arguments often start with '-', which argparse would take for a flag of ours.
    joined = []
    i = 0
    while i < len(argv):
        if argv[i] == "--engine-arg" and i + 1 < len(argv):
            joined.append("--engine-arg=" + argv[i + 1])
            i += 2
        else:
            joined.append(argv[i])
            i += 1
    argv = joined
    parser = argparse.ArgumentParser(
        description="Run mate problems through a USI engine with `go mate`.")
    parser.add_argument("--engine", required=True,
                        help="engine command (split like a shell unless it names a file)")
    parser.add_argument("--engine-arg", action="append", default=[],
                        help="an extra argument for the engine (repeatable)")
    parser.add_argument("--time-ms", type=int, default=10000,
                        help="time per problem, sent as `go mate N` (0: infinite)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a USI option to set (repeatable)")
    parser.add_argument("--grace-ms", type=int, default=5000,
                        help="extra wait before `stop`, and for the answer after it")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines in the tsume batch format instead of text")
    parser.add_argument("file", help="problem file, one SFEN a line ('-' for stdin)")
    args = parser.parse_args(argv)
    if args.time_ms < 0 or args.grace_ms < 0:
        parser.error("--time-ms and --grace-ms must not be negative")
    for option in args.option:
        if "=" not in option or not option.split("=", 1)[0].strip():
            parser.error("--option expects NAME=VALUE, got '%s'" % option)
    return args


def engine_argv(args):
    command = [args.engine] if os.path.exists(args.engine) else shlex.split(args.engine)
    if not command:
        raise EngineError("--engine is empty")
    return command + args.engine_arg


def main(argv):
    args = parse_args(argv)
    try:
        problems = read_problems(args.file)
    except OSError as e:
        print("usi_client: cannot read %s: %s" % (args.file, e.strerror), file=sys.stderr)
        return EXIT_USAGE
    except InputError as e:
        print("usi_client: %s" % e, file=sys.stderr)
        return EXIT_USAGE

    records = []
    status = EXIT_OK
    engine = None
    try:
        engine = Engine(engine_argv(args))
        engine.send("usi")
        engine.wait_for("usiok", HANDSHAKE_TIMEOUT_S, "'usi'")
        for option in args.option:
            name, value = option.split("=", 1)
            engine.send("setoption name %s value %s" % (name.strip(), value.strip()))
        engine.send("isready")
        engine.wait_for("readyok", HANDSHAKE_TIMEOUT_S, "'isready'")
        engine.send("usinewgame")
        for problem in problems:
            try:
                result = solve(engine, problem, args.time_ms, args.grace_ms / 1000.0)
            except EngineError as e:
                raise EngineError("%s (problem %d, %s line %d)" % (
                    e, problem.index, args.file, problem.line_number)) from None
            record = batch_record(args.file, problem, result)
            records.append(record)
            if record["match"] is False:
                status = EXIT_MISMATCH
            if args.json:
                print(json.dumps(record), flush=True)
            else:
                expected = ("expected %d" % problem.expected_length
                            if problem.expected_length is not None else "expected -")
                verdict = {True: "ok", False: "MISMATCH", None: ""}[record["match"]]
                print("%5d  %-16s %-12s %10.1f ms  %s" % (
                    problem.index, describe(result), expected, result["time_ms"],
                    verdict), flush=True)
    except EngineError as e:
        print("usi_client: %s" % e, file=sys.stderr)
        status = EXIT_ENGINE
    finally:
        if engine is not None:
            engine.close()
    print(summary_text(records), file=sys.stderr if args.json else sys.stdout, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
