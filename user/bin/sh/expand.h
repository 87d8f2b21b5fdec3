/*
 * Word expansion, in POSIX's order: parameters, $( ) and $(( )) (and a
 * leading ~), then field splitting at $IFS of what came from unquoted
 * expansions, then pathname expansion, then quote removal.
 */
#ifndef SH_EXPAND_H
#define SH_EXPAND_H

#include "str.h"

/* Command arguments and for-lists: split and globbed; -1 after an error (reported). */
int expand_fields(char **words, struct strv *out);
/* One string, neither split nor globbed: assignments, redirection targets, case subjects. */
char *expand_word(const char *raw);
/* A case pattern: quoted * ? [ come out escaped with \, the rest is pattern. */
char *expand_pattern(const char *raw);
/* A here-document's body: $ ` and \ work as inside double quotes, " is plain. */
char *expand_heredoc(const char *body);

#endif
