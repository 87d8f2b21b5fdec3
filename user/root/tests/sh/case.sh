# case: globs, alternatives, quoting, the first match wins, no match.
for w in apple banana cherry date "star*" a.c x.h "" 42 Z; do
	case $w in
	apple | banana) echo "$w: fruit A or B" ;;
	c*) echo "$w: starts with c" ;;
	"star*") echo "$w: quoted star matches literally" ;;
	*.[ch]) echo "$w: C file" ;;
	'') echo "empty" ;;
	[0-9]*) echo "$w: number" ;;
	[!a-z]) echo "$w: one non-lowercase" ;;
	???*) echo "$w: three or more" ;;
	*) echo "$w: other" ;;
	esac
done
x=hello
case $x in (h*) echo "parenthesized pattern" ;; esac
case $x in
hello) echo first ;;
hello) echo second ;;
esac
case nomatch in a) echo a ;; esac
echo "status after no match: $?"
pat='h*'
case $x in $pat) echo "pattern from a variable" ;; esac
case $x in "$pat") echo wrong ;; *) echo "quoted variable is literal" ;; esac
case $x in h\*) echo wrong ;; h?llo) echo "escaped star, then ?" ;; esac
case "a b" in "a b") echo "spaces in word" ;; esac
case $x in
	hel*)
		echo "body"
		echo "of several lines"
		;;
esac
case x in x) ;; esac; echo "empty body ok"
