# test and [: numbers, strings, files, ! -a -o ( ).
t() { if "$@"; then echo "true:  $*"; else echo "false: $*"; fi; }
t [ 1 -eq 1 ]; t [ 1 -ne 1 ]; t [ 2 -lt 10 ]; t [ 10 -le 2 ]; t [ 3 -gt 2 ]; t [ 3 -ge 4 ]
t [ -5 -lt 0 ]
t [ abc = abc ]; t [ abc != abc ]; t [ "" = "" ]; t [ 10 = 010 ]; t [ 10 -eq 010 ]
t [ -n x ]; t [ -n "" ]; t [ -z "" ]; t [ -z x ]; t [ x ]; t [ "" ]; t [ ]
t [ ! -z x ]; t [ ! x = x ]
t [ 1 -eq 1 -a 2 -eq 2 ]; t [ 1 -eq 1 -a 2 -eq 3 ]; t [ 1 -eq 2 -o 2 -eq 2 ]
t [ \( 1 -eq 2 -o 1 -eq 1 \) -a x = x ]
t test -d /tmp; t test -f /tmp; t test -e /nonexistent
mkdir -p /tmp/shtest-t; echo data > /tmp/shtest-t/f; : > /tmp/shtest-t/empty
t [ -f /tmp/shtest-t/f ]; t [ -s /tmp/shtest-t/f ]; t [ -s /tmp/shtest-t/empty ]; t [ -d /tmp/shtest-t ]
t [ -r /tmp/shtest-t/f ]; t [ -w /tmp/shtest-t/f ]; t [ -x /tmp/shtest-t/f ]; t [ -x /tmp/shtest-t ]
rm -r /tmp/shtest-t 2>/dev/null || { rm /tmp/shtest-t/f /tmp/shtest-t/empty; rmdir /tmp/shtest-t; }
t [ -n ]; t [ = ]; t [ ! ]
t test a '<' b 2>/dev/null
[ 1 -eq 1 ] && echo "and-list" || echo wrong
[ a = b ] || echo "or-list"
if [ "$(echo 5)" -gt 3 ]; then echo "substituted number"; fi
x=; [ -z "$x" ] && echo "empty variable"
