# echo, the builtin: words, -n, and dash's escapes.
echo plain words
echo "  spaced  " 'single  quoted'
echo -n "no newline"; echo " then newline"
echo
echo ""
echo 'a\nb'
echo 'tab\there'
echo 'stop\c' "never printed"
echo after stop
echo 'octal \0101\0102'
echo 'backslash \\ and unknown \q'
echo -- dash-dash
echo "$(echo -n inner) outer"
x="a  b"; echo $x; echo "$x"
echo '*' "*" \*
