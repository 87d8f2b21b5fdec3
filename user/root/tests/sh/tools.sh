# The small tools: seq yes tee cut tr uniq xargs, head -N and tail -N, /bin/printf.
seq 3; seq 2 4; seq 10 -3 1; seq -s , 5; seq -w 8 11
yes | head -3; yes ab cd | head -2
seq 5 | tee /tmp/shtest-tee | tail -1; cat /tmp/shtest-tee | head -2
echo more | tee -a /tmp/shtest-tee > /dev/null; tail -1 /tmp/shtest-tee; rm /tmp/shtest-tee
echo 'a:b:c:d' | cut -d: -f2; echo 'a:b:c:d' | cut -d: -f1,3-; echo 'a:b:c:d' | cut -d: -f-2
printf 'abcdef\n123456\n' | cut -c2-4; printf 'one\ttwo\n' | cut -f2
printf 'x:y\nnodelim\n' | cut -d: -f2 -s
echo 'Hello, World' | tr a-z A-Z; echo 'Hello, World' | tr -d lo; echo 'aabbccdd' | tr -s a-c
echo 'a b  c' | tr -s ' ' '\n' | wc -l | tr -d ' '; echo 'abc123' | tr -cd 0-9; echo
echo 'MiXeD' | tr '[:upper:]' '[:lower:]'; echo 'hello' | tr el ip
printf 'a\na\nb\nc\nc\nc\na\n' | uniq; printf 'a\na\nb\n' | uniq -c
printf 'a\na\nb\nc\nc\n' | uniq -d; printf 'a\na\nb\nc\nc\n' | uniq -u
echo 1 2 3 4 5 | xargs -n 2; echo 'x y' | xargs echo got
printf 'one\ntwo words\n' | xargs -I{} echo '[{}]'
echo "'a b' c" | xargs -n 1 echo
echo 1 2 | xargs sh -c 'exit 1'; echo "xargs status $?"
seq 20 | head -3; seq 20 | tail -2; seq 20 | head -n 1; seq 5 | tail -n 2
seq 100 | head -50 | tail -1
seq 4 | xargs printf '%03d\n' | tr '\n' ' '; echo
seq 3 | while read n; do printf '%s.' "$n"; done; echo
seq 10 | grep 1 | tr '\n' ' '; echo
