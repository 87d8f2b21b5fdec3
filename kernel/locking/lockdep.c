/*
 * The lock-order checker: Linux's lockdep (Documentation/locking/lockdep-design.rst)
 * for smpix's spinlocks, mutexes and the BKL. docs/locking.md tells how to read its reports.
 *
 * A deadlock needs a cycle: task 1 holds A and waits for B while task 2
 * holds B and waits for A. Two tasks seldom meet in that window, so tests
 * seldom see the hang; but each of them, alone, shows the ORDER it takes
 * locks in, every time it runs. So the checker remembers orders, not times:
 *
 *  - Locks are grouped in classes, the place they were initialised (struct
 *    lock_class, planted by spin_lock_init(), mutex_init(), SPINLOCK_INIT,
 *    DEFINE_MUTEX): a rule about "an inode's lock" holds for every inode.
 *  - Each task keeps the locks it holds, in order (struct lockdep_held, in
 *    struct task: a mutex is held across sleeps, so the list is the task's).
 *  - Taking B while holding A records the edge A -> B in a graph of classes.
 *    A new edge is first checked: if B -> ... -> A is already recorded, the
 *    two orders together can deadlock, and the report names both chains.
 *  - Interrupts: a class taken in an interrupt handler (irq-safe, '-') and
 *    also taken elsewhere with interrupts on (irq-unsafe, '+') deadlocks
 *    when the interrupt comes to a CPU inside that lock; and so does an
 *    irq-safe lock held while taking an irq-unsafe one.
 *  - The BKL is a lock of its own class, with one rule of its own: its holder
 *    lets it go whenever it sleeps, and waiting for a mutex is a sleep, so
 *    "BKL held, then a mutex" is no edge (docs/locking.md, "The BKL").
 *
 * All of it runs only with lockdep=1 at boot (make test's boots have it).
 * The check runs BEFORE the lock is waited for, so an inversion is reported
 * before it can hang. After the first report the checker turns itself off,
 * as Linux's does: one bug, one report, and no cascade of its consequences.
 *
 * The graph lives in fixed tables (no allocation: kmalloc takes locks),
 * guarded by graph_lock, a bare test-and-set taken with interrupts off: a
 * spinlock_t would be checked by the checker itself. Edges are only ever
 * added, and published last, so the common case, an edge already known, is
 * found without the lock. Nothing is printed under graph_lock: printk takes
 * locks. A per-CPU flag keeps the checker from checking its own printk.
 */
#include "kernel/locking/lockdep.h"

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/ksyms.h"
#include "kernel/lib/string.h"
#include "kernel/locking/atomic.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/task.h"
#include "kernel/x86/x86.h"

#define CLASSES_MAX 512         /* (class, subclass) pairs; index 0 means "none" */
#define EDGES_MAX 4096          /* index 0 means "none" */
#define EDGE_HASH 8192          /* a power of two, twice EDGES_MAX: short probes */
#define TRACE_MAX 8             /* call sites kept per edge and per usage */
#define PATH_MAX_LEN 32         /* edges in a reported chain */

/* A class's usage bits: how its locks have been taken. */
#define USED_IN_IRQ 1           /* in an interrupt handler: irq-safe ('-') */
#define USED_IRQS_ON 2          /* outside one, with interrupts on: irq-unsafe ('+') */

bool lockdep_on __read_mostly;

/* Where something happened, with the calls that led there. */
struct site {
	const char *file;       /* file:line, or NULL and ip */
	int line;
	uintptr_t ip;
	int pid;
	int ntrace;
	uint32_t trace[TRACE_MAX];
};

/* A node of the graph: a class, or one of its subclasses. */
struct node {
	struct lock_class *class;
	int subclass;
	int usage;
	uint16_t first_out, first_in;   /* edge lists */
	struct site usage_site[2];      /* where each usage bit was first seen */
};

/* "from was held while to was taken", and where that was first seen. */
struct edge {
	uint16_t from, to;
	uint16_t next_out, next_in;
	const char *held_file;  /* where from had been taken: file:line, or NULL and ip */
	int held_line;
	uintptr_t held_ip;
	struct site taken;      /* where to was taken, with the calls */
};

static volatile int graph_lock;
static struct node nodes[CLASSES_MAX];
static int nnodes;
static struct edge edges[EDGES_MAX];
static int nedges;
static uint16_t edge_hash[EDGE_HASH];          /* edge indexes by (from, to): 0 empty */
static int reports;
static int off_for_good;                /* a report or a full table turned it off */
/* Each CPU's frame of the lockdep_acquire() under way: call chains start above the checker's own. */
static uint32_t acquire_ebp[MAX_CPUS];

/* The breadth-first search's state: under graph_lock. */
static uint32_t visit_gen, visited[CLASSES_MAX];
static uint16_t via[CLASSES_MAX];               /* the edge a search reached each node by */
static uint16_t queue[CLASSES_MAX];

/* Interrupts off while it is held: a handler's lock on this CPU would wait for it for ever. */
static uint32_t graph_take(void)
{
	uint32_t flags = irq_save();

	while (__atomic_exchange_n(&graph_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	return flags;
}

static void graph_give(uint32_t flags)
{
	__atomic_store_n(&graph_lock, 0, __ATOMIC_RELEASE);
	irq_restore(flags);
}

/* The first report (or a full table) turns the checker off for good; true for the one that did. */
static bool turn_off(void)
{
	WRITE_ONCE(lockdep_on, false);
	return __atomic_exchange_n(&off_for_good, 1, __ATOMIC_ACQ_REL) == 0;
}

/* ---- printing -------------------------------------------------------------------------- */

static char usage_char(int n)
{
	static const char c[4] = { '.', '-', '+', '?' };

	return c[nodes[n].usage & 3];
}

static void print_class(int n)
{
	printk("(%s", nodes[n].class->name ? nodes[n].class->name : "?");
	if (nodes[n].subclass)
		printk("/%d", nodes[n].subclass);
	printk("){%c}", usage_char(n));
}

static void print_place(const char *file, int line, uintptr_t ip)
{
	uintptr_t off;
	const char *fn;

	if (file) {
		printk("%s:%d", file, line);
		return;
	}
	fn = ksym_lookup(ip, &off);
	if (fn)
		printk("[<%08x>] %s+0x%x", (unsigned)ip, fn, (unsigned)off);
	else
		printk("[<%08x>]", (unsigned)ip);
}

static void print_held(const struct held_lock *h)
{
	print_class(h->node);
	printk(", at: ");
	print_place(h->file, h->line, h->ip);
	printk("\n");
}

static void print_site(const struct site *s)
{
	printk("       ");
	print_place(s->file, s->line, s->ip);
	printk(" (pid %d)\n", s->pid);
	for (int i = 0; i < s->ntrace; i++) {
		uintptr_t off;
		const char *fn = ksym_lookup(s->trace[i], &off);

		printk("       [<%08x>] %s+0x%x\n", (unsigned)s->trace[i], fn ? fn : "?", (unsigned)off);
	}
}

static void print_task_held(struct task *t)
{
	struct lockdep_held *hs = &t->lockdep;

	printk("\n%d lock%s held by %s/%d:\n", hs->depth, hs->depth == 1 ? "" : "s", t->name, t->pid);
	for (int i = 0; i < hs->depth; i++) {
		printk(" #%d: ", i);
		print_held(&hs->held[i]);
	}
}

static void print_header(const char *title)
{
	int n = (int)strlen(title) + 9;

	WRITE_ONCE(reports, reports + 1);
	printk("\n");
	for (int i = 0; i < n; i++)
		printk("=");
	printk("\nWARNING: %s\n", title);
	for (int i = 0; i < n; i++)
		printk("-");
	printk("\n");
}

static void print_footer(struct task *t)
{
	print_task_held(t);
	printk("\nstack backtrace:\n");
	dump_backtrace(acquire_ebp[this_cpu()->id]);   /* from the lock call, not from the checker */
	printk("lockdep: turning off the locking correctness validator; docs/locking.md explains this report\n");
}

static void print_name(int n)
{
	printk("%s", nodes[n].class->name ? nodes[n].class->name : "?");
	if (nodes[n].subclass)
		printk("/%d", nodes[n].subclass);
}

/* ---- the tables ------------------------------------------------------------------------ */

static void fill_site(struct site *s, const struct held_lock *h)
{
	s->file = h->file;
	s->line = h->line;
	s->ip = h->ip;
	s->pid = current ? current->pid : 0;
	s->ntrace = save_backtrace(acquire_ebp[this_cpu()->id], s->trace, TRACE_MAX);
}

/* The node of (c, subclass), made on first use; 0 when the table is full. Under graph_lock. */
static int node_of(struct lock_class *c, int subclass)
{
	int n = c->dep_id[subclass];

	if (n)
		return n;
	if (nnodes + 1 >= CLASSES_MAX)
		return 0;
	n = ++nnodes;
	nodes[n].class = c;
	nodes[n].subclass = subclass;
	__atomic_store_n(&c->dep_id[subclass], (uint16_t)n, __ATOMIC_RELEASE);
	return n;
}

static unsigned hash_of(int from, int to)
{
	return ((unsigned)from * 2654435761u ^ (unsigned)to * 40503u) & (EDGE_HASH - 1);
}

/* The edge from -> to, or 0. Needs no lock: a slot, once filled, names a finished edge for ever. */
static int find_edge(int from, int to)
{
	for (unsigned i = hash_of(from, to);; i = (i + 1) & (EDGE_HASH - 1)) {
		int e = __atomic_load_n(&edge_hash[i], __ATOMIC_ACQUIRE);

		if (!e)
			return 0;
		if (edges[e].from == from && edges[e].to == to)
			return e;
	}
}

/* Record from -> to (under graph_lock); 0 when the table is full. */
static int add_edge(int from, int to, const struct held_lock *held, const struct held_lock *taken)
{
	struct edge *e;
	unsigned i;

	if (nedges + 1 >= EDGES_MAX)
		return 0;
	e = &edges[++nedges];
	e->from = from;
	e->to = to;
	e->held_file = held->file;
	e->held_line = held->line;
	e->held_ip = held->ip;
	fill_site(&e->taken, taken);
	e->next_out = nodes[from].first_out;
	e->next_in = nodes[to].first_in;
	nodes[from].first_out = nedges;
	nodes[to].first_in = nedges;
	for (i = hash_of(from, to); edge_hash[i]; i = (i + 1) & (EDGE_HASH - 1))
		;
	__atomic_store_n(&edge_hash[i], (uint16_t)nedges, __ATOMIC_RELEASE);
	return nedges;
}

/*
 * Breadth first from start, along edges (forward) or against them, to the
 * first node for which want(node, arg) holds; 0 if none. via[] then leads
 * back from it to start. Under graph_lock.
 */
static int search(int start, bool forward, bool (*want)(int n, int arg), int arg)
{
	int head = 0, tail = 0;

	visit_gen++;
	visited[start] = visit_gen;
	queue[tail++] = start;
	while (head < tail) {
		int n = queue[head++];

		if (n != start && want(n, arg))
			return n;
		for (int e = forward ? nodes[n].first_out : nodes[n].first_in; e;
		     e = forward ? edges[e].next_out : edges[e].next_in) {
			int m = forward ? edges[e].to : edges[e].from;

			if (visited[m] != visit_gen && tail < CLASSES_MAX) {
				visited[m] = visit_gen;
				via[m] = e;
				queue[tail++] = m;
			}
		}
	}
	return 0;
}

static bool is_node(int n, int target)
{
	return n == target;
}

static bool has_usage(int n, int bit)
{
	return nodes[n].usage & bit;
}

/* The edges of the path a forward search found from start to end, in order: how many. */
static int path_to(int start, int end, uint16_t *path)
{
	int n = 0, k = end;

	while (k != start && n < PATH_MAX_LEN) {
		path[n++] = via[k];
		k = edges[via[k]].from;
	}
	for (int i = 0; i < n / 2; i++) {
		uint16_t tmp = path[i];

		path[i] = path[n - 1 - i];
		path[n - 1 - i] = tmp;
	}
	return n;
}

/* ---- the reports ----------------------------------------------------------------------- */

/*
 * Holding held, t wants new, but new -> ... -> held is known: path, its edges.
 * Printed as Linux prints it: #0 is the lock wanted now, #1.. the chain back
 * from it to the lock held, each with where that step was first seen.
 */
static void report_circular(struct task *t, const struct held_lock *held, const struct held_lock *new,
			    const uint16_t *path, int len)
{
	int parent = edges[path[len - 1]].from;

	print_header("possible circular locking dependency detected");
	printk("%s/%d is trying to acquire lock:\n ", t->name, t->pid);
	print_held(new);
	printk("\nbut task is already holding lock:\n ");
	print_held(held);
	printk("\nwhich lock already depends on the new lock.\n\n");
	printk("the existing dependency chain (in reverse order) is:\n");
	for (int i = len - 1; i >= 0; i--) {
		const struct edge *e = &edges[path[i]];

		printk("\n-> #%d ", i + 1);
		print_class(e->to);
		printk(":\n       taken while holding ");
		print_name(e->from);
		printk(" (taken at ");
		print_place(e->held_file, e->held_line, e->held_ip);
		printk("), at:\n");
		print_site(&e->taken);
	}
	printk("\n-> #0 ");
	print_class(new->node);
	printk(":\n       taken now while holding ");
	print_name(held->node);
	printk(", at:\n       ");
	print_place(new->file, new->line, new->ip);
	printk(" (pid %d; stack backtrace below)\n", t->pid);
	printk("\nother info that might help us debug this:\n\n");
	if (parent != new->node) {
		printk(" Chain exists of:\n  ");
		print_name(new->node);
		for (int i = 0; i < len; i++) {
			printk(" --> ");
			print_name(edges[path[i]].to);
		}
		printk("\n\n");
	}
	printk(" Possible unsafe locking scenario:\n\n");
	printk("       CPU0                    CPU1\n");
	printk("       ----                    ----\n");
	printk("  lock(");
	print_name(held->node);
	printk(");\n                               lock(");
	print_name(parent);
	printk(");\n                               lock(");
	print_name(held->node);
	printk(");\n  lock(");
	print_name(new->node);
	printk(");\n\n *** DEADLOCK ***\n");
	print_footer(t);
}

static void report_recursive(struct task *t, const struct held_lock *held, const struct held_lock *new)
{
	print_header("possible recursive locking detected");
	printk("%s/%d is trying to acquire lock:\n ", t->name, t->pid);
	print_held(new);
	printk("\nbut task is already holding lock:\n ");
	print_held(held);
	printk("\nother info that might help us debug this:\n");
	printk(" Possible unsafe locking scenario:\n\n       CPU0\n       ----\n  lock(");
	print_name(held->node);
	printk(");\n  lock(");
	print_name(new->node);
	printk(");\n\n *** DEADLOCK ***\n\n");
	printk(" May be due to missing lock nesting notation: two locks of one class (one place of\n"
	       " initialisation) taken one inside the other need spin_lock_nested() or classes of their own\n");
	print_footer(t);
}

static const char *usage_name(int bit)
{
	return bit == USED_IN_IRQ ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
}

/* One class both irq-safe and irq-unsafe; bit is the usage seen just now, in new's acquisition. */
static void report_inconsistent(struct task *t, const struct held_lock *new, int bit)
{
	int other = bit == USED_IN_IRQ ? USED_IRQS_ON : USED_IN_IRQ;

	print_header("inconsistent lock state");
	printk("inconsistent {%s} -> {%s} usage.\n", usage_name(other), usage_name(bit));
	printk("%s/%d [HC%d:HE%d] takes:\n ", t->name, t->pid, in_interrupt() ? 1 : 0, bit == USED_IRQS_ON);
	print_held(new);
	printk("{%s} state was registered at:\n", usage_name(other));
	print_site(&nodes[new->node].usage_site[other - 1]);
	printk("\nother info that might help us debug this:\n");
	printk(" Possible unsafe locking scenario:\n\n       CPU0\n       ----\n  lock(");
	print_name(new->node);
	printk(");\n  <Interrupt>\n    lock(");
	print_name(new->node);
	printk(");\n\n *** DEADLOCK ***\n");
	print_footer(t);
}

/*
 * An irq-safe class (safe) is, through the graph, held while an irq-unsafe
 * one (unsafe) is taken. new: the acquisition that completed the picture.
 */
static void report_irq_inversion(struct task *t, const char *title, const struct held_lock *new, int safe,
				 int unsafe)
{
	print_header(title);
	printk("%s/%d is trying to acquire lock:\n ", t->name, t->pid);
	print_held(new);
	printk("\nwhich connects, in the recorded lock order, a HARDIRQ-irq-safe lock:\n ");
	print_class(safe);
	printk("\n... which became HARDIRQ-irq-safe at:\n");
	print_site(&nodes[safe].usage_site[0]);
	printk("\nto a HARDIRQ-irq-unsafe lock:\n ");
	print_class(unsafe);
	printk("\n... which became HARDIRQ-irq-unsafe at:\n");
	print_site(&nodes[unsafe].usage_site[1]);
	printk("\nother info that might help us debug this:\n");
	printk(" Possible interrupt unsafe locking scenario:\n\n");
	printk("       CPU0                    CPU1\n       ----                    ----\n  lock(");
	print_name(unsafe);
	printk(");\n                               local_irq_disable();\n                               lock(");
	print_name(safe);
	printk(");\n                               lock(");
	print_name(unsafe);
	printk(");\n  <Interrupt>\n    lock(");
	print_name(safe);
	printk(");\n\n *** DEADLOCK ***\n");
	print_footer(t);
}

/* A table is full: say so once, as a bug (the limits are too low), and stop checking. */
static void report_full(const char *what, int max)
{
	if (turn_off())
		printk("BUG: lockdep: more than %d %s; turning off the locking correctness validator\n", max, what);
}

/* ---- the checks ------------------------------------------------------------------------ */

/* Note how new was taken (irq-safe or -unsafe), and report a conflict the new usage makes. */
static void mark_usage(struct task *t, struct held_lock *new, bool irqs_on)
{
	int bit = new->irq ? USED_IN_IRQ : irqs_on ? USED_IRQS_ON : 0;
	int n = new->node, other = 0;
	uint32_t gf;

	if (!bit || (READ_ONCE(nodes[n].usage) & bit))
		return;
	gf = graph_take();
	if (nodes[n].usage & bit) {
		graph_give(gf);
		return;
	}
	fill_site(&nodes[n].usage_site[bit - 1], new);
	WRITE_ONCE(nodes[n].usage, nodes[n].usage | bit);
	if (nodes[n].usage == (USED_IN_IRQ | USED_IRQS_ON))
		other = n;
	else if (bit == USED_IN_IRQ)
		other = search(n, true, has_usage, USED_IRQS_ON);       /* safe, and held while unsafe taken */
	else
		other = search(n, false, has_usage, USED_IN_IRQ);       /* unsafe, and taken under a safe one */
	graph_give(gf);
	if (!other || !turn_off())
		return;
	if (other == n)
		report_inconsistent(t, new, bit);
	else if (bit == USED_IN_IRQ)
		report_irq_inversion(t, "possible irq lock inversion dependency detected", new, n, other);
	else
		report_irq_inversion(t, "possible irq lock inversion dependency detected", new, other, n);
}

/*
 * held -> new is not yet known: check it, then record it. A cycle through it,
 * or an irq-safe lock before it and an irq-unsafe one after it, is reported.
 */
static void check_new_edge(struct task *t, const struct held_lock *held, const struct held_lock *new)
{
	uint16_t path[PATH_MAX_LEN];
	int len = 0, safe = 0, unsafe = 0;
	uint32_t gf = graph_take();

	if (find_edge(held->node, new->node)) {
		graph_give(gf);           /* another CPU added it meanwhile */
		return;
	}
	if (search(new->node, true, is_node, held->node)) {
		len = path_to(new->node, held->node, path);
	} else if (!add_edge(held->node, new->node, held, new)) {
		graph_give(gf);
		report_full("lock dependencies", EDGES_MAX - 1);
		return;
	} else {
		safe = has_usage(held->node, USED_IN_IRQ) ? held->node
							   : search(held->node, false, has_usage, USED_IN_IRQ);
		if (safe)
			unsafe = has_usage(new->node, USED_IRQS_ON) ? new->node
								     : search(new->node, true, has_usage, USED_IRQS_ON);
	}
	graph_give(gf);
	if (len && turn_off())
		report_circular(t, held, new, path, len);
	else if (unsafe && turn_off())
		report_irq_inversion(t, "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected", new, safe, unsafe);
}

/*
 * The BKL's rule: its holder lets it go while it sleeps, and waiting for a
 * mutex is a sleep. So "BKL held, then a mutex taken" is no dependency: the
 * waiter for the mutex does not hold the BKL while it waits, and no cycle
 * can run through that step. (Spinlocks are waited for spinning, with the
 * BKL held: those edges stay.)
 */
static bool sleep_breaks(const struct held_lock *held, const struct held_lock *new)
{
	return held->class->kind == LOCK_BKL && new->class->kind == LOCK_MUTEX;
}

/* Check new against every lock t holds in the same context (task or interrupt). */
static void check_held(struct task *t, const struct held_lock *new)
{
	struct lockdep_held *hs = &t->lockdep;

	for (int i = hs->depth - 1; i >= 0 && READ_ONCE(lockdep_on); i--) {
		const struct held_lock *h = &hs->held[i];

		if (h->irq != new->irq || sleep_breaks(h, new))
			continue;
		if (h->node == new->node) {
			if (turn_off())
				report_recursive(t, h, new);
			return;
		}
		if (!find_edge(h->node, new->node))
			check_new_edge(t, h, new);
	}
}

static void push_held(struct task *t, const struct held_lock *new)
{
	struct lockdep_held *hs = &t->lockdep;

	if (hs->depth >= LOCKDEP_HELD_MAX) {
		if (turn_off()) {
			printk("BUG: lockdep: %s/%d holds more than %d locks; turning off the locking correctness "
			       "validator\n", t->name, t->pid, LOCKDEP_HELD_MAX);
			print_task_held(t);
		}
		return;
	}
	hs->held[hs->depth++] = *new;
}

/* Checks may print, and printk takes locks: this CPU's checker must not check those. Interrupts off. */
static struct task *enter_checker(void)
{
	struct cpu *c = this_cpu();

	if (!c->curr || c->lockdep_recursion)
		return NULL;
	c->lockdep_recursion = 1;
	return c->curr;
}

static void leave_checker(void)
{
	this_cpu()->lockdep_recursion = 0;
}

void lockdep_acquire(struct lock_class *c, int subclass, const void *lock, const char *file, int line,
		     uintptr_t ip, unsigned flags)
{
	bool irqs_on = irqs_enabled();
	uint32_t eflags = irq_save();
	struct held_lock new;
	struct task *t;

	if (!c || !READ_ONCE(lockdep_on) || !(t = enter_checker())) {
		irq_restore(eflags);
		return;
	}
	acquire_ebp[this_cpu()->id] = read_ebp();
	new = (struct held_lock){ .class = c, .lock = lock, .file = file, .line = line, .ip = ip,
				  .subclass = (uint8_t)subclass, .irq = in_interrupt(),
				  .trylock = (flags & LOCKDEP_TRYLOCK) != 0 };
	new.node = c->dep_id[subclass];
	if (!new.node) {
		uint32_t gf = graph_take();

		new.node = node_of(c, subclass);
		graph_give(gf);
	}
	if (!new.node) {
		report_full("lock classes", CLASSES_MAX - 1);
	} else {
		mark_usage(t, &new, irqs_on);
		if (!(flags & (LOCKDEP_TRYLOCK | LOCKDEP_NOEDGES)))
			check_held(t, &new);
		push_held(t, &new);
	}
	leave_checker();
	irq_restore(eflags);
}

/* Take lock off t's held stack; false if it is not there. Interrupts off. */
static bool pop_held(struct task *t, const void *lock, struct held_lock *out)
{
	struct lockdep_held *hs = &t->lockdep;

	for (int i = hs->depth - 1; i >= 0; i--) {
		if (hs->held[i].lock != lock)
			continue;
		if (out)
			*out = hs->held[i];
		for (int j = i; j + 1 < hs->depth; j++)
			hs->held[j] = hs->held[j + 1];
		hs->depth--;
		return true;
	}
	return false;
}

void lockdep_release(const void *lock)
{
	uint32_t eflags = irq_save();
	struct task *t = enter_checker();

	if (t) {
		pop_held(t, lock, NULL);
		leave_checker();
	}
	irq_restore(eflags);
}

void lockdep_handoff(const void *lock, struct task *from, struct task *to)
{
	uint32_t eflags = irq_save();
	struct held_lock h;

	if (READ_ONCE(lockdep_on) && enter_checker()) {
		if (pop_held(from, lock, &h) && to->lockdep.depth < LOCKDEP_HELD_MAX)
			to->lockdep.held[to->lockdep.depth++] = h;
		leave_checker();
	}
	irq_restore(eflags);
}

/* ---- switching it on, and looking at it ------------------------------------------------ */

void lockdep_init(void)
{
	const char *v = cmdline_get("lockdep");

	if (v && (strcmp(v, "1") == 0 || strcmp(v, "on") == 0)) {
		WRITE_ONCE(lockdep_on, true);
		printk("lockdep: on: every lock's order is checked (docs/locking.md)\n");
	}
}

/*
 * On from here, for a test booted without lockdep=1 (make qemu APPEND=test=all).
 * Safe at any time: a lock taken before is on no task's list, so it only
 * misses edges, and its release is ignored. Not after a report.
 */
bool lockdep_start(void)
{
	if (!READ_ONCE(lockdep_on) && !READ_ONCE(off_for_good)) {
		WRITE_ONCE(lockdep_on, true);
		printk("lockdep: on from here, for a test (docs/locking.md)\n");
	}
	return READ_ONCE(lockdep_on);
}

int lockdep_reports(void)
{
	return READ_ONCE(reports);
}

int lockdep_held_depth(const struct task *t)
{
	return t->lockdep.depth;
}

bool lockdep_depends(struct lock_class *a, struct lock_class *b)
{
	bool found;
	uint32_t gf;

	if (!a->dep_id[0] || !b->dep_id[0])
		return false;
	gf = graph_take();
	found = search(a->dep_id[0], true, is_node, b->dep_id[0]) != 0;
	graph_give(gf);
	return found;
}

void lockdep_get_counts(struct lockdep_counts *out)
{
	out->classes = READ_ONCE(nnodes);
	out->classes_max = CLASSES_MAX - 1;
	out->edges = READ_ONCE(nedges);
	out->edges_max = EDGES_MAX - 1;
	out->irq_safe = out->irq_unsafe = 0;
	for (int n = 1; n <= out->classes; n++) {
		out->irq_safe += (READ_ONCE(nodes[n].usage) & USED_IN_IRQ) != 0;
		out->irq_unsafe += (READ_ONCE(nodes[n].usage) & USED_IRQS_ON) != 0;
	}
}

struct lock_class *lockdep_class_at(int i, int *subclass, int *edges_out, char *usage)
{
	int n = i + 1, out = 0;
	uint32_t gf;

	if (n > READ_ONCE(nnodes))
		return NULL;
	gf = graph_take();
	for (int e = nodes[n].first_out; e; e = edges[e].next_out)
		out++;
	graph_give(gf);
	*subclass = nodes[n].subclass;
	*edges_out = out;
	*usage = usage_char(n);
	return nodes[n].class;
}
