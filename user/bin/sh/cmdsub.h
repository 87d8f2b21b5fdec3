/* $(command) and `command`: run it in a subshell, take its output. */
#ifndef SH_CMDSUB_H
#define SH_CMDSUB_H

/* The output of text run as commands, trailing newlines removed (malloc'd); its status in sh.cmdsub_status. */
char *cmdsub_run(const char *text);

#endif
