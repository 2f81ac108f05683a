"""Exact mean length and seat-1 win rate of a duel decided by hits (rules/duel.edn,
both combatants choosing uniformly among quick, focused and powerful attacks; the
defender's choice between a defence and a dodge changes only its cost, so with
stamina left out it plays no part). Each attack is followed by the defender's
turn, and both count toward the length.

A reference for benches/duels.rs, whose three implementations only sample these.
Stamina is left out: in these fights it never falls far enough to matter (exhaustion
at 25 %, attack types refused below their cost) except in a tail of games too rare
to move the fourth digit.

    python3 benches/peers/scripts/duel_exact.py
"""

from collections import defaultdict


def d20(advantage):
    """Faces of 1d20, or of the higher of two."""
    if advantage:
        return {r: (2 * r - 1) / 400 for r in range(1, 21)}
    return {r: 1 / 20 for r in range(1, 21)}


def differences(attack_mod, defense_mod, attack_adv, defense_adv):
    """Distribution of attack roll − defense roll."""
    out = defaultdict(float)
    for a, pa in d20(attack_adv).items():
        for d, pd in d20(defense_adv).items():
            out[(a + attack_mod) - (d + defense_mod)] += pa * pd
    return out


def modifier(level):
    return level - 1


def solve(fighters, hits_to_win=3, limit=400):
    """fighters: (offense, defense, speed) of seat 1 and seat 2."""
    # Initiative: higher 1d20 first, then higher speed, then both roll a tiebreak
    # (1d20 each); a tie after that keeps seat order.
    (o1, d1, s1), (o2, d2, s2) = fighters
    p_higher = 190 / 400  # one d20 above another
    p_tie = 20 / 400
    if s1 > s2:
        first_is_1 = p_higher + p_tie
    elif s1 < s2:
        first_is_1 = p_higher
    else:
        first_is_1 = p_higher + p_tie * (p_higher + p_tie)
    mean = win1 = 0.0
    for first, p_first in ((0, first_is_1), (1, 1 - first_is_1)):
        states = {(0, 0, 0, 0): p_first}  # hits 1, hits 2, edge 1, edge 2
        # Own turns alternate; the k-th is turn 2k − 1, its defence turn 2k.
        for turn in range(1, limit // 2 + 1):
            you = first if turn % 2 == 1 else 1 - first
            other = 1 - you
            off, dfn = fighters[you][0], fighters[other][1]
            nxt = defaultdict(float)
            for (h1, h2, e1, e2), p in states.items():
                hits, edge = [h1, h2], [e1, e2]
                for bonus in (0, 2, 4):
                    dist = differences(
                        modifier(off) + bonus,
                        modifier(dfn),
                        edge[you] == 1 or off - dfn >= 2,
                        dfn - off >= 2,
                    )
                    for diff, pd in dist.items():
                        q = p * pd / 3
                        h, e = hits[:], edge[:]
                        e[you] = 0
                        if diff > 0:
                            h[you] += 1
                        if diff >= 10:
                            e[you] = 1
                        if -diff >= 10:
                            e[other] = 1
                        if h[you] >= hits_to_win:
                            mean += q * 2 * turn
                            win1 += q if you == 0 else 0
                        else:
                            nxt[(h[0], h[1], e[0], e[1])] += q
            states = nxt
        mean += sum(states.values()) * limit
    return mean, win1


if __name__ == "__main__":
    for name, fighters in [
        ("the bundled duel", ((4, 2, 4), (3, 3, 2))),
        ("mastery gaps of 2, equal speed", ((5, 5, 3), (3, 2, 3))),
    ]:
        mean, win1 = solve(fighters)
        print(f"{name}: mean turns {mean:.4f}, seat 1 wins {win1:.4f}")
