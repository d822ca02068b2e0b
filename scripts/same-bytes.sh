#!/usr/bin/env bash
# Byte identity of turn output between two builds (a performance change must not move a byte: issue 37).
# usage: scripts/same-bytes.sh <checkout-A> <checkout-B> [nations] [units]
# Each checkout must be built (npm run build). Generates campaigns with A's generator (kept under
# /tmp/sb-<n>-<u>/), turns each with both builds on cp -al copies, and diffs the turn folders. Four kinds:
# plain, --events --actions, rules.warfare on, and --silent (every seat played by the caretaker).
set -euo pipefail
A=$1; B=$2; N=${3:-200}; U=${4:-20}
root=/tmp/sb-$N-$U; mkdir -p "$root"
# A build's command line: the bundle where the build makes one, tsc's output in older commits.
cli_of() { if [ -f "$1/dist/fatecraft/main.js" ]; then echo "$1/dist/fatecraft/main.js"; else echo "$1/dist/src/cli/main.js"; fi; }
status=0
for kind in plain events-actions warfare silent; do
  base=$root/base-$kind
  if [ ! -d "$base" ]; then
    flags=()
    case $kind in events-actions) flags=(--events --actions);; silent) flags=(--silent);; esac
    node "$(cli_of "$A")" generate "$base" --nations "$N" --units-per-nation "$U" "${flags[@]}" >/dev/null
    if [ $kind = warfare ]; then
      node -e "const fs=require('fs'),y=require('$A/node_modules/yaml');const f='$base/campaign.yaml';const c=y.parse(fs.readFileSync(f,'utf8'));c.rules={...(c.rules||{}),warfare:{enabled:true}};fs.writeFileSync(f,y.stringify(c))"
    fi
  fi
  work=$(mktemp -d /tmp/sb-run-XXXX)
  cp -al "$base" "$work/a"; cp -al "$base" "$work/b"
  node "$(cli_of "$A")" turn --expect 1 "$work/a" >/dev/null 2>"$work/a.err" || { echo "$kind: A failed"; cat "$work/a.err"; status=1; }
  node "$(cli_of "$B")" turn --expect 1 "$work/b" >/dev/null 2>"$work/b.err" || { echo "$kind: B failed"; cat "$work/b.err"; status=1; }
  if diff -r "$work/a/turns" "$work/b/turns" >"$work/diff.txt"; then
    echo "$kind: identical ($(find "$work/a/turns/0001" -type f | wc -l) files)"
    rm -rf "$work"
  else
    echo "$kind: DIFFERENT — see $work/diff.txt"; head -20 "$work/diff.txt"; status=1
  fi
done
exit $status
