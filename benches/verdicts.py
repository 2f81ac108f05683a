#!/usr/bin/env python3
"""Verdict stability: how much a card's verdict depends on the player.

    benches/verdicts.py RULES GAMES PLAYER... [--bin PATH] [--threads N] [--out DIR]

For each PLAYER (an `--ai` value, every seat alike) plays GAMES games of RULES
(seed 1) as two halves, `--shard 1/2` and `--shard 2/2` of one run, and ranks
the cards by improvement when drawn (in-hand win rate minus not-seen win
rate, both seats pooled). Prints the Spearman rank correlation between every
two players' rankings over the whole run, and between the two halves of each
player's run: the noise floor, what two runs of the same player agree to.
The JSON of each half is kept in DIR (default /tmp/verdicts), and a half
already there is read, not played again. docs/BALANCE.md's table was made
with it.
"""
import json, os, subprocess, sys


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def improvement(cards):
    """Each card's improvement from the counts (so halves add up exactly)."""
    out = {}
    for c in cards:
        h = c["in_hand_wr"]
        s = c["not_seen_wr"]
        if h["n"] and s["n"]:
            out[c["card"]] = (h["rate"] * h["n"], h["n"], s["rate"] * s["n"], s["n"])
    return out


def main():
    args = sys.argv[1:]
    binary, threads, out = "target/release/grimoire", 2, "/tmp/verdicts"
    for flag in ("--bin", "--threads", "--out"):
        if flag in args:
            at = args.index(flag)
            value = args[at + 1]
            del args[at:at + 2]
            binary, threads, out = (value, threads, out) if flag == "--bin" else (
                (binary, int(value), out) if flag == "--threads" else (binary, threads, value))
    rules, games, players = args[0], int(args[1]), args[2:]
    os.makedirs(out, exist_ok=True)
    halves = {}
    for p in players:
        halves[p] = []
        for k in (1, 2):
            path = os.path.join(out, f"{rules}-{p.replace(':', '_')}-{games}-{k}.json")
            if not os.path.exists(path):
                cmd = [binary, "simulate", rules, "--games", str(games), "--seed", "1", "--ai", p,
                       "--shard", f"{k}/2", "--threads", str(threads), "--format", "json"]
                done = subprocess.run(cmd, check=True, capture_output=True, text=True)
                with open(path, "w") as f:
                    f.write(done.stdout)
            with open(path) as f:
                halves[p].append(improvement(json.load(f)["cards"]))
    def rate(parts, card):
        hw = sum(x[card][0] for x in parts); hn = sum(x[card][1] for x in parts)
        sw = sum(x[card][2] for x in parts); sn = sum(x[card][3] for x in parts)
        return hw / hn - sw / sn
    cards = sorted(set.intersection(*(set(h) for p in players for h in halves[p])))
    whole = {p: [rate(halves[p], c) for c in cards] for p in players}
    print(f"{rules}, {games} games a player, {len(cards)} cards ranked by improvement when drawn")
    for p in players:
        a = [rate(halves[p][:1], c) for c in cards]
        b = [rate(halves[p][1:], c) for c in cards]
        print(f"  {p}: two halves of one run agree {spearman(a, b):.2f}")
    for i, p in enumerate(players):
        for q in players[i + 1:]:
            print(f"  {p} against {q}: {spearman(whole[p], whole[q]):.2f}")


if __name__ == "__main__":
    main()
