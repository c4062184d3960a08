#!/usr/bin/env bash
# check-thin-tools.sh SRC - the front ends stay thin (docs/ARCHITECTURE.md,
# issue 13): tools/ under 3,000 lines in all, and no function in it over
# 80 lines.  What grows past that is logic a second front
# end would copy: it belongs in the library.
set -euo pipefail
src=${1:?usage: check-thin-tools.sh SRC}
fails=0
total=$(cat "$src"/tools/*.[ch] | wc -l)
if ((total >= 3000)); then
	echo "tools/ is $total lines (limit: under 3,000)"
	fails=1
fi
# a function: from a line at column 0 with '(' not ending in ';' to the
# next '}' at column 0 (the project's clang-format layout)
long=$(awk '
	/^[a-zA-Z].*\(/ && !/;[ \t]*$/ { name = $0; start = FNR; file = FILENAME }
	/^}/ && start { if (FNR - start + 1 > 80)
		printf "%s:%d: %d lines: %s\n", file, start, FNR - start + 1, name
		start = 0 }
' "$src"/tools/*.c)
if [[ -n $long ]]; then
	echo "functions over 80 lines:"
	echo "$long"
	fails=1
fi
echo "tools/: $total lines; longest function $(awk '
	/^[a-zA-Z].*\(/ && !/;[ \t]*$/ { start = FNR }
	/^}/ && start { n = FNR - start + 1; if (n > max) max = n; start = 0 }
	END { print max }' "$src"/tools/*.c) lines"
exit $fails
