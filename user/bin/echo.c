/* echo [-n] [WORD...]: the words, separated by blanks, and a newline unless -n. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1, newline = 1;
	size_t n = 2;
	char *line;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = 0;
		i++;
	}
	for (int j = i; j < argc; j++)
		n += strlen(argv[j]) + 1;
	line = malloc(n);
	if (!line)
		return 1;
	line[0] = '\0';
	for (; i < argc; i++) {
		strcat(line, argv[i]);
		if (i < argc - 1)
			strcat(line, " ");
	}
	if (newline)
		strcat(line, "\n");
	/* One write, so that echo into a pipe or a file is one piece. */
	return write(1, line, strlen(line)) == (ssize_t)strlen(line) ? 0 : 1;
}
