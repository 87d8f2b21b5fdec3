/* /bin/uhelper: a second program for utest to exec; argv[1] says what to do. */
#include "ulib.h"
#include "kernel/uapi/auxv.h"

extern char _start[];

/* argv must be "uhelper", "checkargs", N, then arg3 .. arg(N-1); envp "E0=zero" "E1=one". */
static int check_args(int argc, char **argv, char **envp)
{
	uint32_t *sp = (uint32_t *)initial_esp;
	char want[16];
	int n = atoi(argv[2]);
	uint32_t *aux;
	int seen = 0;

	if (initial_esp % 16)
		return 10;
	if (argc != n || (int)sp[0] != argc || (char **)&sp[1] != argv || argv[argc])
		return 11;
	for (int i = 3; i < argc; i++) {
		snprintf(want, sizeof(want), "arg%d", i);
		if (strcmp(argv[i], want))
			return 12;
	}
	if (!envp[0] || strcmp(envp[0], "E0=zero") || !envp[1] || strcmp(envp[1], "E1=one") || envp[2])
		return 13;
	for (aux = (uint32_t *)&envp[3]; aux[0] != AT_NULL; aux += 2) {
		if (aux[0] == AT_PAGESZ && aux[1] == 4096)
			seen |= 1;
		if (aux[0] == AT_ENTRY && aux[1] == (uint32_t)_start)
			seen |= 2;
		if (aux[0] == AT_PHDR && aux[1] && *(uint32_t *)aux[1] == 1 /* PT_LOAD first */)
			seen |= 4;
		if (aux[0] == AT_PHNUM && aux[1] > 0)
			seen |= 8;
	}
	return seen == 15 ? 0 : 14;
}

int main(int argc, char **argv, char **envp)
{
	if (argc < 2)
		return 1;
	if (!strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	if (!strcmp(argv[1], "checkargs"))
		return check_args(argc, argv, envp);
	if (!strcmp(argv[1], "forkloop")) {
		/* Fork and reap argv[2] children; each touches some heap first. */
		for (int i = 0; i < atoi(argv[2]); i++) {
			int pid = fork(), st;
			if (pid == 0) {
				char *b = brk(0);
				brk(b + 3 * 4096);
				b[5000] = 1;
				exit(0);
			}
			if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
				return 3;
		}
		return 0;
	}
	if (!strcmp(argv[1], "segv"))
		*(volatile int *)0 = 0;
	if (!strcmp(argv[1], "hello")) {
		printf("uhelper: hello from pid %d\n", getpid());
		return 0;
	}
	return 2;
}
