#!/bin/sh
# The symbol table is built from the first link; check no function moved in the second.
set -e
a=$(nm -n "$1" | awk '$2 ~ /^[tT]$/' | md5sum)
b=$(nm -n "$2" | awk '$2 ~ /^[tT]$/' | md5sum)
if [ "$a" != "$b" ]; then
	echo "check-ksyms: functions moved between the two links; the symbol table would lie" >&2
	exit 1
fi
