/*
 * The parsed form of a command: a tree the executor walks. Words stay as
 * the user typed them (quotes included) until the moment they are used,
 * because what they expand to depends on when: `for i in 1 2; do echo $i;
 * done` expands $i once per turn of the loop.
 */
#ifndef SH_NODE_H
#define SH_NODE_H

enum node_type {
	N_CMD,          /* a simple command: assigns, args, redirs */
	N_PIPE,         /* cmds[0] | cmds[1] | ... */
	N_AND,          /* left && right */
	N_OR,           /* left || right */
	N_LIST,         /* left ; right */
	N_NOT,          /* ! body */
	N_BG,           /* body & */
	N_TIME,         /* time body */
	N_SUBSHELL,     /* ( body ) */
	N_GROUP,        /* { body; } */
	N_IF,           /* if cond; then body; else els; fi (elif: els is another N_IF) */
	N_WHILE,        /* while cond; do body; done */
	N_UNTIL,        /* until cond; do body; done */
	N_FOR,          /* for name in words; do body; done (words NULL: "$@") */
	N_CASE,         /* case word in items esac */
	N_FUNC,         /* name() body: defines a function when it runs */
};

enum redir_kind {
	R_IN,           /* < */
	R_OUT,          /* > and >| */
	R_APPEND,       /* >> */
	R_RDWR,         /* <> */
	R_DUPIN,        /* <& */
	R_DUPOUT,       /* >& */
	R_HEREDOC,      /* << and <<- */
};

struct redir {
	enum redir_kind kind;
	int fd;                 /* the fd redirected */
	char *word;             /* the file, the fd to copy (or -), or a here-doc's delimiter; raw */
	char *body;             /* R_HEREDOC: the lines up to the delimiter */
	int strip_tabs;         /* <<-: leading tabs are removed from each line */
	int quoted;             /* R_HEREDOC: the delimiter was quoted, so the body is not expanded */
	struct redir *next;
	struct redir *next_pending;     /* the lexer's list of here-docs whose body comes next */
};

struct case_item {
	char **patterns;        /* raw, NULL-terminated */
	struct node *body;      /* NULL: empty */
	struct case_item *next;
};

struct node {
	enum node_type type;
	int line;                       /* where it starts */
	int refs;                       /* a function's body is shared by its definition and the function table */
	struct redir *redirs;           /* N_CMD and the compound commands */
	char **assigns, **args;         /* N_CMD: NAME=value words, then the command's words; NULL-terminated */
	struct node **cmds;             /* N_PIPE */
	int ncmds;
	struct node *left, *right;      /* N_AND N_OR N_LIST */
	struct node *cond, *body, *els; /* most others */
	char *name;                     /* N_FOR's variable, N_FUNC's name */
	char **words;                   /* N_FOR */
	char *word;                     /* N_CASE */
	struct case_item *items;        /* N_CASE */
};

struct node *node_new(enum node_type type, int line);
void node_free(struct node *n);         /* the whole tree, but a body still shared stays */
void words_free(char **w);
void redirs_free(struct redir *r);

#endif
