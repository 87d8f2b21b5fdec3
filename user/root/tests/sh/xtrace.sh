# set -x: each simple command on stderr, expanded, with "+ " (here sent to stdout).
exec 2>&1
x=5
set -x
echo "value $x"
y=$((x + 1))
z=1 true
f() { echo "in f"; }
f arg
for i in a b; do echo $i; done
[ "$y" = 6 ]
set +x
echo "tracing off"
