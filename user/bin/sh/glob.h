/* Pathname expansion: a word with * ? [ becomes the sorted names of the files it matches. */
#ifndef SH_GLOB_H
#define SH_GLOB_H

#include "str.h"

/* Add the paths pattern matches to out, sorted; how many (0: the caller keeps the word). */
int glob_expand(const char *pattern, struct strv *out);

#endif
