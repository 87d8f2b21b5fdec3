#!/bin/sh
# usage: need.sh TOOL...   Make sure each tool exists; install the missing ones with
# tools/build/deps.sh when we are root, else say exactly what to run. Exit 1 if any is still missing.
# (DEPS_DRY_RUN=1 is passed on to deps.sh: nothing is installed.)
deps="$(dirname "$0")/deps.sh"

check() {
	missing=""
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
}

check "$@"
[ -z "$missing" ] && exit 0
echo "need:$missing not found" >&2
if [ "$(id -u)" -eq 0 ]; then
	echo "need: running tools/build/deps.sh (make deps)" >&2
	"$deps" >&2 || exit 1
	check "$@"
	[ -z "$missing" ] && exit 0
	echo "need:$missing still not found after tools/build/deps.sh (is it in PATH?)" >&2
	exit 1
fi
echo "need: you are not root: run 'sudo make deps'. What it would do:" >&2
DEPS_DRY_RUN=1 "$deps" >&2
exit 1
