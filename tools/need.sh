#!/bin/sh
# usage: need.sh TOOL...   Make sure each tool exists; install the missing ones with
# tools/deps.sh when we are root, else say exactly what to run.
missing=""
for t in "$@"; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
[ -z "$missing" ] && exit 0
echo "need:$missing not found"
if [ "$(id -u)" -eq 0 ]; then
	echo "need: running tools/deps.sh (make deps)"
	exec "$(dirname "$0")/deps.sh"
fi
echo "need: run 'sudo make deps' (or: sudo apt-get install qemu-system-x86 grub-pc-bin grub-common xorriso mtools gdb cpio python3)" >&2
exit 1
