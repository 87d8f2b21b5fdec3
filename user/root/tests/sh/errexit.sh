# set -e: the first failing command that nobody tests ends the script, with its status.
set -e
echo start
false || echo "a tested failure (||) goes on"
if false; then echo no; else echo "a failing if-condition goes on"; fi
while false; do :; done
! true
echo "after ! true"
f() { false; echo "not reached in f"; }
f || echo "f failed, tested"
x=$(false) || echo "assignment from a failing \$( ) is tested here"
(exit 0)
true && false || true
echo "before the failure"
sh -c 'exit 3'
echo "never printed"
