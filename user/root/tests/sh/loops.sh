# for, while, until; break and continue, also N loops out; loop status.
for i in 1 2 3; do echo "for $i"; done
for w in "a b" c; do echo "[$w]"; done
set -- x "y z"
for p; do echo "param [$p]"; done
for p in "$@"; do echo "quoted [$p]"; done
for e in; do echo never; done
i=0
while [ $i -lt 3 ]; do i=$((i + 1)); echo "while $i"; done
until [ $i -eq 0 ]; do echo "until $i"; i=$((i - 1)); done
for a in 1 2 3; do
	for b in 1 2 3; do
		[ $b -eq 2 ] && continue
		[ $a -eq 2 ] && continue 2
		[ $a -eq 3 ] && break 2
		echo "pair $a$b"
	done
done
n=0
while :; do
	n=$((n + 1))
	if [ $n -ge 4 ]; then break; fi
done
echo "broke at $n"
while false; do :; done; echo "status of a loop that never ran: $?"
for i in 1 2; do false; done; echo "status after false: $?"
for i in 1 2 3
do
	echo "multi-line $i"
done
i=0; while [ $i -lt 2 ]; do i=$((i+1)); done > /dev/null; echo "redirected loop: $i"
for f in $(echo one two); do echo "from \$( ): $f"; done
seq 3 | while read line; do echo "piped $line"; done
