#!/usr/bin/env bash
# Prints the path of ~500 MB of real English text, made once: the texts of
# ../shared/datasets/text (gcide unpacked, KJV, Gutenberg, WikiText) concatenated and
# repeated. The input of the end-to-end benchmarks.
#
#   input=$(tools/bench/make_text500.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
text=$root/../shared/datasets/text
work=${TMPDIR:-/tmp}/mrlocal-bench
input=$work/text500.txt
mkdir -p "$work"
if [ ! -s "$input" ]; then
  once=$work/once.txt
  { xz -dc "$text/gcide.dict.xz"; cat "$text/kjv-bible.txt" "$text"/gutenberg/*.txt "$text"/wikipedia/*.txt; } > "$once"
  : > "$input"
  while [ "$(stat -c %s "$input")" -lt 500000000 ]; do cat "$once" >> "$input"; done
  rm -f "$once"
fi
echo "$input"
