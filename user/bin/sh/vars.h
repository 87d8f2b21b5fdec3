/* Shell variables, the environment commands get, and the positional parameters $1 $2 ... */
#ifndef SH_VARS_H
#define SH_VARS_H

char *var_get(const char *name);                /* NULL: unset */
void var_set(const char *name, const char *value);
void var_export(const char *name, const char *value);  /* value NULL: keep the value */
void var_unset(const char *name);
int var_valid_name(const char *s, int len);     /* len -1: up to the NUL */
void var_import(char **env);
char **var_environ(void);                       /* the exported variables as NAME=value, malloc'd */
void var_free_environ(char **env);
void var_print(int exported_only);              /* for `set` and `export` without arguments */
/* A parameter's value: a variable, $0 $1 ..., or $# $? $$ $! $- (in buf) and $LINENO. NULL: unset. */
const char *var_param(const char *name, char *buf, int size);
int var_is_special(char c);                     /* a digit or one of # ? $ ! - @ * */

/*
 * Values to put back later: `local x` in a function, and NAME=value in
 * front of a function or builtin. var_save() remembers name's value now on
 * *saved; var_restore() puts back everything on it, last first.
 */
struct saved_var;
void var_save(struct saved_var **saved, const char *name);
void var_restore(struct saved_var **saved);
extern struct saved_var **var_locals;           /* the running function's saves; NULL outside one */

/* $1..$n; $0 is sh.name. */
struct params {
	int n;
	char **v;               /* v[0] is $1 */
};
extern struct params params;
void params_set(struct params *p, int n, char **v);    /* copies v */
void params_free(struct params *p);

#endif
