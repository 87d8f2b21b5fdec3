/*
 * getopts OPTSTRING NAME [ARG...]: the next option from ARGs (the
 * positional parameters by default), as a script parses its own:
 *
 *   while getopts ab: opt; do case $opt in a) ...;; b) x=$OPTARG;; esac; done
 *   shift $((OPTIND - 1))
 *
 * NAME gets the letter (? for an unknown one, or a missing argument), and
 * OPTARG the option's argument; OPTIND is the index of the next argument.
 * Status 1 at the end of the options. A leading : in OPTSTRING makes it
 * quiet: no messages, NAME=: for a missing argument, OPTARG=the letter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "sh.h"
#include "vars.h"

/*
 * Where the next letter is: in the argument before OPTIND (as dash counts,
 * OPTIND moves past an argument as soon as its first letter is taken), at
 * index pos; 0: start on the argument at OPTIND. Started again whenever
 * OPTIND is not what we left it at (a script sets OPTIND=1 to parse again).
 */
static int pos, left_optind = -1;

static void set_index(int optind)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", optind);
	var_set("OPTIND", num);
	left_optind = optind;
}

static void set_name(const char *name, char c)
{
	char s[2] = { c, 0 };

	var_set(name, s);
}

/* The end of the options: status 1, NAME=?. */
static int done(const char *name, int optind)
{
	set_name(name, '?');
	var_unset("OPTARG");
	set_index(optind);
	pos = 0;
	return 1;
}

/* The option letter c was not in OPTSTRING, or its argument is missing (missing = 1). */
static void bad_option(const char *name, char c, int quiet, int missing)
{
	if (!quiet)
		sh_error(missing ? "No arg for -%c option" : "Illegal option -%c", c);
	set_name(name, quiet && missing ? ':' : '?');
	if (quiet)
		set_name("OPTARG", c);
}

int builtin_getopts(int argc, char **argv)
{
	const char *spec, *optstring = argv[1], *name = argv[2], *arg;
	char **args = argc > 3 ? argv + 3 : params.v;
	int nargs = argc > 3 ? argc - 3 : params.n, optind, quiet;
	char c;

	if (argc < 3) {
		sh_error("usage: getopts OPTSTRING NAME [ARG...]");
		return 2;
	}
	optind = var_get("OPTIND") ? atoi(var_get("OPTIND")) : 1;
	if (optind != left_optind || optind < 1)
		pos = 0;
	if (optind < 1)
		optind = 1;
	if (pos == 0) {
		if (optind > nargs || args[optind - 1][0] != '-' || !args[optind - 1][1])
			return done(name, optind);
		if (strcmp(args[optind - 1], "--") == 0)
			return done(name, optind + 1);
		pos = 1;
		optind++;
	}
	arg = args[optind - 2];
	c = arg[pos++];
	if (!arg[pos])
		pos = 0;
	quiet = optstring[0] == ':';
	spec = c != ':' ? strchr(optstring + quiet, c) : NULL;
	var_unset("OPTARG");
	if (!spec) {
		bad_option(name, c, quiet, 0);
	} else if (spec[1] != ':') {
		set_name(name, c);
		var_set("OPTARG", "");
	} else if (pos > 0) {
		var_set("OPTARG", arg + pos);   /* -bVALUE */
		set_name(name, c);
		pos = 0;
	} else if (optind <= nargs) {
		var_set("OPTARG", args[optind - 1]);    /* -b VALUE */
		set_name(name, c);
		optind++;
	} else {
		bad_option(name, c, quiet, 1);
	}
	set_index(optind);
	return 0;
}
