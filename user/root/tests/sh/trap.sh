# trap: a command on a signal, at exit, ignored signals, reset, in functions and subshells.
trap 'echo "exit trap, status $?"' EXIT
trap 'echo got USR1' USR1
trap
kill -USR1 $$
echo "after usr1"
trap '' USR2; kill -USR2 $$; echo "usr2 ignored"
trap - USR1
trap
f() { trap 'echo "in trap: $1"' TERM; kill -TERM $$; echo "f continues"; }
f arg
( trap; echo "subshell sees traps above (only ignored ones kept)" )
trap 'echo "int trap"; exit 9' INT
kill -INT $$
echo not reached
