# Syntax errors: the status is 2 and the message names the line. Run in a fresh shell each;
# $SH is the shell under test (dash on the host). Only the line number is compared.
SH=${SH:-sh}
check() {
	printf '%s' "$1" > /tmp/shtest-syntax.sh
	out=$($SH /tmp/shtest-syntax.sh 2>&1)
	st=$?
	line=$(echo "$out" | grep 'Syntax error' | cut -d: -f2 | tr -d ' ')
	printf 'status=%s line=%s stdout=%s\n' $st "$line" "$(echo "$out" | grep -v 'Syntax error' | tr '\n' ,)"
}
check 'echo before
if true; then
	echo inside
fi fi
echo after
'
check 'for i in 1 2
echo x
done
'
check 'echo ok
case x in
a) echo a ;;
esac esac
'
check 'while true; do
done
'
check 'echo one
echo two )
'
check 'f() {
	echo body
}
f
{ echo group; }
then
'
check 'x=1
echo "$x" &&
'
check 'echo "unterminated
'
rm /tmp/shtest-syntax.sh
echo "after the checks"
