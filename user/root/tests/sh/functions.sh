# Functions: arguments, $#, "$@", return, local, recursion, redefinition.
greet() {
	echo "hello, $1 ($# args)"
}
greet world
greet "big world" extra
show() { for a in "$@"; do printf '<%s>' "$a"; done; echo; }
show a "b c" "" d
count() { echo $#; }
count; count ""; count a b c
status() { return $1; }
status 3; echo "returned $?"
status 0 && echo "zero is success"
early() {
	echo before
	return
	echo never
}
early
fact() {
	if [ $1 -le 1 ]; then echo 1; return; fi
	local sub=$(fact $(($1 - 1)))
	echo $(($1 * sub))
}
echo "5! = $(fact 5)"
x=global
scope() { local x=local; echo "inside: $x"; }
scope; echo "outside: $x"
setg() { g=set-in-function; }
setg; echo "g=$g"
outer() { echo "outer sees \$1=$1"; inner b; echo "outer again \$1=$1"; }
inner() { echo "inner sees \$1=$1"; }
outer a
f() { echo one; }
f
f() { echo two; }
f
loopfn() { for i in 1 2 3; do [ $i = 2 ] && return 7; echo "loop $i"; done; }
loopfn; echo "status $?"
withredir() { echo "to a file"; } > /tmp/shtest-func.out
withredir; cat /tmp/shtest-func.out; rm /tmp/shtest-func.out
echo "positional after calls: $#"
