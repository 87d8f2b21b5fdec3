/* An ordinary C program: printf and malloc from glibc, built with gcc -m32 -static. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t total = 0;
	char *words[100];

	for (int i = 0; i < 100; i++) {
		words[i] = malloc(16 + i * 40);
		if (!words[i]) {
			perror("malloc");
			return 1;
		}
		snprintf(words[i], 16 + i * 40, "word %d", i);
		total += strlen(words[i]);
	}
	for (int i = 0; i < 100; i++)
		free(words[i]);
	printf("hello from glibc: %s, %d argument(s), %zu bytes of words\n", argv[0], argc, total);
	printf("%.3f %5.2e %-6s|%x\n", 3.14159, 12345.678, "pad", 48879);
	return 0;
}
