#!/usr/bin/env bash
# Writes every output the refactoring issues promise to keep byte for byte
# into OUT: play logs (every bundled rule set, seeds 1-5, every AI pairing),
# simulate JSON and CSV (20,000 games, seed 1), the scenario run, and check of
# every tests/data/err fixture (human and JSON). Compare two such folders with
# `diff -r`. Usage: scripts/behaviour.sh GRIMOIRE_BINARY OUT
set -uo pipefail
bin="$(realpath "$1")"
out="$2"
cd "$(dirname "$0")/.."
mkdir -p "$out"/{play,simulate,check}
ais="random greedy search"
for rules in arcomage duel skills tactics tbwg; do
  for seed in 1 2 3 4 5; do
    for a in $ais; do
      for b in $ais; do
        "$bin" play "$rules" --seed "$seed" --ai "$a" --ai "$b" \
          >"$out/play/$rules-$seed-$a-$b.txt" 2>&1
        echo "exit $?" >>"$out/play/$rules-$seed-$a-$b.txt"
      done
    done
  done
  for format in json csv; do
    "$bin" simulate "$rules" --games 20000 --seed 1 --format "$format" \
      >"$out/simulate/$rules.$format" 2>&1
    echo "exit $?" >>"$out/simulate/$rules.$format"
  done
done
"$bin" test tests/scenarios >"$out/scenarios.txt" 2>&1
echo "exit $?" >>"$out/scenarios.txt"
for f in tests/data/err/*.edn; do
  name="$(basename "$f" .edn)"
  NO_COLOR=1 "$bin" check --rules arcomage "$f" >"$out/check/$name.human" 2>&1
  echo "exit $?" >>"$out/check/$name.human"
  "$bin" check --rules arcomage --format json "$f" >"$out/check/$name.json" 2>&1
  echo "exit $?" >>"$out/check/$name.json"
done
