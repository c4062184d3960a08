#!/usr/bin/env bash
# check-test-flakes.sh SRC - the two shapes of shell code that make a test
# pass or fail by chance, refused in every script of tests/, bench/,
# scripts/ and .ci/:
#
#  1. A pipe into a reader that may stop early: `| head`, `| grep -q`,
#     `| grep -m N`, `| grep -l`, `| sed ...q`.  Under `set -o pipefail`
#     the producer dies of SIGPIPE whenever the reader leaves before it
#     has written everything, and the pipeline fails at random.  Read the
#     output into a variable or a file first (`grep -q X <<<"$(cmd)"`),
#     or let the reader read a file (`grep -m1 X FILE`), or give it a
#     process substitution (`grep -q X < <(cmd)`: the producer's status is
#     nobody's).
#  2. A fixed `sleep` outside a loop: a wait decided by the clock instead
#     of by the event.  Wait for the event in a loop with a deadline (a
#     `sleep` inside `for`/`while`/`until` is a poll interval, and fine).
#
# A line that must keep one of these shapes says why with a comment
# `flake-ok: REASON` on the same line.  Exit 1 with each offending
# file:line, 0 when there is none.
set -euo pipefail
src=${1:?usage: check-test-flakes.sh SRC}
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
	find "$src/tests" "$src/bench" "$src/scripts" "$src/.ci" -type f \
		\( -name '*.sh' -o -name run \) -print0 2>/dev/null)
((${#files[@]})) || { echo "check-test-flakes: no scripts under $src" >&2; exit 1; }
self=$(basename "$0")
report=$(awk -v self="$self" '
	FNR == 1 { depth = 0; cont = "" }
	# the checker names the shapes it looks for
	FILENAME ~ ("/" self "$") { next }
	{
		line = $0
		if (line ~ /flake-ok:/) { cont = ""; next }
		# a comment line, or the comment at the end of a line (after a blank)
		if (line ~ /^[ \t]*#/) next
		sub(/[ \t]#.*$/, "", line)
		# a pipeline continued on the next line is read as one
		if (line ~ /[|\\][ \t]*$/) { cont = cont line " "; next }
		line = cont line; cont = ""
		# 1. a pipe (not ||) into a reader that may leave early
		if (line ~ /(^|[^|])\|[ \t]*(head([ \t]|$)|grep[ \t]+(-[A-Za-z]+[ \t]+)*-[A-Za-z]*[qml]|grep[ \t].*--(quiet|max-count|files-with-matches)|sed[ \t].*[0-9$\/]q)/)
			printf "%s:%d: a pipe into a reader that may stop early (SIGPIPE under pipefail): %s\n", FILENAME, FNR, $0
		# 2. sleep at loop depth 0; do/done counted as words
		n = split(line, w, /[ \t;&|()]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] == "do") depth++
			else if (w[i] == "done" && depth > 0) depth--
			else if (w[i] == "sleep" && w[i + 1] ~ /^[0-9.]+$/ && depth == 0)
				printf "%s:%d: a fixed sleep outside a wait loop: %s\n", FILENAME, FNR, $0
		}
	}
' "${files[@]}")
if [[ -n $report ]]; then
	printf '%s\n' "$report"
	echo "check-test-flakes: $(wc -l <<<"$report") line(s) that can make a test flaky"
	exit 1
fi
echo "check-test-flakes: ${#files[@]} scripts, no flaky shape"
