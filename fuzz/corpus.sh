#!/usr/bin/env bash
# Builds the fuzz targets' seed corpora in fuzz/corpus/TARGET/ from the
# repository's own data files (rule sets, cards, effects, test fixtures and
# scenarios) and the inputs that found defects (tests/data/fuzz/TARGET/), so
# no corpus is committed. What earlier runs added to a corpus is kept
# (entries are named by their content's hash); `rm -rf fuzz/corpus` starts
# afresh. Run from anywhere:
#   fuzz/corpus.sh            # every target
#   fuzz/corpus.sh read fmt   # some
# Inputs that pick a bundled rule set start with its index in
# grimoire::check::rules::BUNDLED: the rule sets of rules/, by file name in byte order, as
# build.rs bundles them;
# one past the last means "no rule set" to the check target.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="$root/fuzz/corpus"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(read check csv md eval game fmt scenario)

mapfile -t names < <(git -C "$root" ls-files -- 'rules/*.edn' | sed 's|^rules/||; s|\.edn$||' | LC_ALL=C sort)
if [ ${#names[@]} -eq 0 ]; then
  echo "corpus.sh: found no bundled rule sets in rules/" >&2
  exit 1
fi
none=${#names[@]}

# The repository's tracked files (never build output), under the given folders, ending in $1.
files() {
  local ext="$1"
  shift
  git -C "$root" ls-files -- "$@" | grep -E "\.${ext}\$" || true
}

# put TARGET FILE: a corpus entry named by its content's hash, read from stdin.
put() {
  local tmp
  tmp="$(mktemp)"
  cat > "$tmp"
  mv "$tmp" "$out/$1/$(sha1sum < "$tmp" | cut -c1-40)"
}

byte() { printf "\\x$(printf %02x "$1")"; }
# Eight little-endian bytes of a small number.
u64() { byte "$1"; printf '\0\0\0\0\0\0\0'; }

for t in "${targets[@]}"; do
  mkdir -p "$out/$t"
  # The inputs that found defects, as they were given.
  for f in $(git -C "$root" ls-files -- "tests/data/fuzz/$t"); do
    put "$t" < "$f"
  done
  case "$t" in
    read | fmt)
      for f in $(files edn rules cards effects tests/data tests/scenarios | grep -v '^tests/data/fuzz/'); do
        put "$t" < "$f"
      done
      ;;
    check)
      for i in "${!names[@]}"; do
        for f in $(files edn "cards/${names[$i]}" "effects/${names[$i]}"); do
          { byte "$i"; cat "$f"; } | put check
        done
      done
      # The fixtures are Arcomage's; rule-set files are checked with none.
      for f in $(files edn tests/data/ok tests/data/err); do
        { byte 0; cat "$f"; } | put check
      done
      for f in $(files edn rules tests/data/rules); do
        { byte "$none"; cat "$f"; } | put check
      done
      ;;
    csv | md)
      for f in $(files "$t" cards effects tests/data | grep -v '^tests/data/fuzz/'); do
        for i in "${!names[@]}"; do
          { byte "$i"; cat "$f"; } | put "$t"
        done
      done
      ;;
    eval)
      # Input: rules, seed, spawn [], values [], statuses, timing, form, text.
      for i in "${!names[@]}"; do
        for f in $(files edn "cards/${names[$i]}" "effects/${names[$i]}"); do
          for form in 0 1 2; do
            { byte "$i"; u64 7; byte 0; byte 0; byte 0; byte 0; byte "$form"; cat "$f"; } | put eval
          done
          # One status held by the second seat from the first, and a timing run after.
          { byte "$i"; u64 7; byte 0; byte 0; byte 1; byte 1; byte 0; byte 3; byte 0
            u64 5; byte 0; byte 1; byte 1; byte 0; byte 0; cat "$f"; } | put eval
        done
      done
      ;;
    game)
      # Input: rules, seed, players, leave_out, tweaks [], extra cards.
      for i in "${!names[@]}"; do
        for seed in 1 2 3; do
          # Random players; a greedy one against random.
          { byte "$i"; u64 "$seed"; byte 1; byte 6; byte 0; u64 0; byte 0; } | put game
          { byte "$i"; u64 "$seed"; byte 1; byte 1; byte 1; byte 6; byte 0; u64 0; byte 0; } | put game
        done
        for f in $(files edn "cards/${names[$i]}"); do
          { byte "$i"; u64 4; byte 1; byte 6; byte 0; u64 0; byte 0; cat "$f"; } | put game
        done
      done
      ;;
    scenario)
      for i in "${!names[@]}"; do
        for f in $(files edn "tests/scenarios/${names[$i]}"); do
          { byte "$i"; cat "$f"; } | put scenario
        done
      done
      ;;
    *)
      echo "corpus.sh: no target $t (read check csv md eval game fmt scenario)" >&2
      exit 2
      ;;
  esac
  echo "fuzz/corpus/$t: $(find "$out/$t" -type f | wc -l) inputs"
done
