# printf: the builtin, then /bin/printf through xargs.
printf '%s %d %x %X %o %5s|%-5s|%%\n' str 42 255 255 8 right left
printf '%05d|%-6d|%+d|% d|%.3d\n' 42 7 5 6 9
printf '%3.1s|%.2s|%c%c\n' abc xyz hello w
printf '%s\n' one two three
printf '%s=%s\n' a 1 b 2 c
printf 'no newline'; printf '\n'
printf '%d %s\n'
printf 'tab[\t] backslash[\\] octal[\101\102] quote[\"]\n'
printf '%b\n' 'escapes\tin\targ' 'stop\chere'
printf '%d\n' "'A" 0x10 010 -3
printf '%#x %#o\n' 255 8
printf '%*d|%-*s|\n' 5 42 4 ab
printf -- '--dash\n'
x=$(printf '%s-' a b c); echo "$x"
echo 1 2 3 | xargs printf '<%s>\n'
printf '%s %s %s\n' a b c d e
