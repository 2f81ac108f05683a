#!/usr/bin/env python3
"""Strength of one computer player against another, from both seats.

    benches/strength.py RULES A B GAMES [--bin PATH] [--threads N] [-- EXTRA simulate ARGS]

Plays GAMES/2 games with A in the first seat and B in the second, and GAMES/2
the other way round (`grimoire simulate --ai A --ai B`, seeds 1 and 2), and
prints A's score (a win 1, a tie or a game that hit the turn limit 1/2) with a
95 % Wilson interval, per seat order too, and the games per second of one core
(user time over games). For a one-seat rule set (a solo fight) it prints the
win rate of each player alone instead, and its metrics' means with 95 %
intervals (GAMES/2 games each, seed 1). The tables in docs/PERFORMANCE.md and
docs/BALANCE.md were made with it.
"""
import json, math, os, resource, subprocess, sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, c - h, c + h)


def run(binary, rules, ais, games, seed, threads, extra):
    cmd = [binary, "simulate", rules, "--games", str(games), "--seed", str(seed),
           "--threads", str(threads), "--format", "json"] + extra
    for a in ais:
        cmd += ["--ai", a]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    used = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    return json.loads(out), used


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        at = args.index("--")
        args, extra = args[:at], args[at + 1:]
    binary, threads = "target/release/grimoire", 1
    for flag in ("--bin", "--threads"):
        if flag in args:
            at = args.index(flag)
            value = args[at + 1]
            del args[at:at + 2]
            if flag == "--bin":
                binary = value
            else:
                threads = int(value)
    rules, a, b, games = args[0], args[1], args[2], int(args[3])
    half = games // 2
    try:
        first, t1 = run(binary, rules, [a, b], half, 1, threads, extra)
    except subprocess.CalledProcessError as e:
        if "for 1 seat" not in e.stderr:
            raise
        first = None
    if first is None:
        # One seat: each player alone, the same seeds, GAMES/2 games each.
        first, t1 = run(binary, rules, [a], half, 1, threads, extra)
        second, t2 = run(binary, rules, [b], half, 1, threads, extra)
        for name, r, t in ((a, first, t1), (b, second, t2)):
            w = r["seats"][0]["wins"]
            p, lo, hi = wilson(w, half)
            metrics = "; ".join(
                f"{m} {v['mean']:.2f} ({v['low']:.2f}-{v['high']:.2f})"
                for m, v in r.get("metrics", {}).items())
            print(f"{rules}: {name} alone wins {w}/{half} = {p:.1%} ({lo:.1%}-{hi:.1%}); {metrics}; {half / t:.1f} games/s a core")
        return
    second, t2 = run(binary, rules, [b, a], games - half, 2, threads, extra)
    def score(r, seat):
        draws = r["ties"] + r["turn_limits"]
        return r["seats"][seat]["wins"] + draws / 2
    s1, s2 = score(first, 0), score(second, 1)
    n2 = games - half
    p, lo, hi = wilson(s1 + s2, games)
    p1 = wilson(s1, half)
    p2 = wilson(s2, n2)
    stuck = sum(r["no_action"] + r["refused"] for r in (first, second))
    print(f"{rules}: {a} vs {b}: {s1 + s2:g}/{games} = {p:.1%} ({lo:.1%}-{hi:.1%}); "
          f"first seat {p1[0]:.1%}, second {p2[0]:.1%}; "
          f"{games / (t1 + t2):.2f} games/s a core; stuck {stuck}")


if __name__ == "__main__":
    main()
