#!/bin/sh
# Write the kernel's function symbols as assembly for section .ksyms.
# usage: mksyms.sh KERNEL.ELF > ksyms.S    (no argument: an empty table, for the first link)
set -e
if [ -n "$1" ]; then
	nm -n "$1" | awk '$2 ~ /^[tTwW]$/ && $3 !~ /^\./ { print $1, $3 }'
fi | awk '
BEGIN {
	print ".section .ksyms, \"a\""
	print ".align 4"
	print ".globl ksym_table, ksym_count, ksym_names"
}
{ addr[NR] = $1; name[NR] = $2 }
END {
	print "ksym_count: .long " NR
	print "ksym_table:"
	off = 0
	for (i = 1; i <= NR; i++) {
		print "\t.long 0x" addr[i] ", " off
		off += length(name[i]) + 1
	}
	print "ksym_names:"
	for (i = 1; i <= NR; i++)
		print "\t.asciz \"" name[i] "\""
}'
