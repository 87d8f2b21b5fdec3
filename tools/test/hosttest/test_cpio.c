// TESTS: fs/initrd/cpio.c
/* The initrd's cpio parser against archives from the real `cpio -o -H newc` and damaged ones. */
#include "hosttest.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/initrd/cpio.h"
#include "kernel/uapi/errno.h"

/* What the callback saw, copied out so a test can compare runs. */
struct seen {
	char name[64];
	uint32_t mode, rdev_major, rdev_minor;
	size_t size;
	char data[8];           /* the first bytes */
};

struct record {
	struct seen e[32];
	int n;
	int stop_after;         /* return 99 after this many entries (0: never) */
};

static int record_entry(const struct cpio_entry *ce, void *arg)
{
	struct record *r = arg;
	struct seen *s;

	if (r->n >= (int)(sizeof(r->e) / sizeof(r->e[0])))
		return -1;
	s = &r->e[r->n++];
	/* The name must be NUL-terminated exactly at namelen. */
	CHECK(strlen(ce->name) == ce->namelen);
	snprintf(s->name, sizeof(s->name), "%s", ce->name);
	s->mode = ce->mode;
	s->rdev_major = ce->rdev_major;
	s->rdev_minor = ce->rdev_minor;
	s->size = ce->size;
	memcpy(s->data, ce->data, ce->size < sizeof(s->data) ? ce->size : sizeof(s->data));
	if (r->stop_after && r->n == r->stop_after)
		return 99;
	return 0;
}

static int parse(const void *buf, size_t len, struct record *r, const char **why)
{
	memset(r, 0, sizeof(*r));
	*why = NULL;
	return cpio_parse(buf, len, record_entry, r, why);
}

static const struct seen *find(const struct record *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->e[i].name, name) == 0)
			return &r->e[i];
	return NULL;
}

/* A copy of exactly len bytes on the heap, so ASan reports any read past the end. */
static unsigned char *exact_copy(const void *src, size_t len)
{
	unsigned char *p = malloc(len ? len : 1);

	memcpy(p, src, len);
	return p;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f) {
		printf("cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n);
	if (fread(buf, 1, n, f) != (size_t)n)
		exit(1);
	fclose(f);
	*len = n;
	return buf;
}

static void run(const char *cmd)
{
	if (system(cmd) != 0) {
		printf("command failed: %s\n", cmd);
		exit(1);
	}
}

/* ---- archives built by hand, for what the real cpio never writes ---------- */

static unsigned char handbuf[4096];
static size_t handlen;

static void hand_field(char *p, uint32_t v)
{
	char tmp[9];

	snprintf(tmp, sizeof(tmp), "%08X", v);
	memcpy(p, tmp, 8);
}

static void hand_pad(void)
{
	while (handlen & 3)
		handbuf[handlen++] = 0;
}

/* Append one newc member; namesize counts the NUL, as the format says. */
static void hand_entry(const char *name, uint32_t mode, const char *data)
{
	size_t namesize = strlen(name) + 1, size = data ? strlen(data) : 0;
	char *h = (char *)handbuf + handlen;

	memset(h, '0', 110);
	memcpy(h, "070701", 6);
	hand_field(h + 6 + 8 * 1, mode);
	hand_field(h + 6 + 8 * 4, 1);
	hand_field(h + 6 + 8 * 6, size);
	hand_field(h + 6 + 8 * 11, namesize);
	handlen += 110;
	memcpy(handbuf + handlen, name, namesize);
	handlen += namesize;
	hand_pad();
	if (size)
		memcpy(handbuf + handlen, data, size);
	handlen += size;
	hand_pad();
}

static void hand_start(void)
{
	handlen = 0;
}

static void hand_trailer(void)
{
	hand_entry("TRAILER!!!", 0, NULL);
}

/* Parse what was built by hand from an exact-size heap copy. */
static int parse_hand(struct record *r, const char **why)
{
	unsigned char *p = exact_copy(handbuf, handlen);
	int rc = parse(p, handlen, r, why);

	free(p);
	return rc;
}

/* ---- the tests -------------------------------------------------------------- */

static void test_real_archive(const unsigned char *arc, size_t len)
{
	static struct record r;
	const struct seen *s;
	const char *why;

	CHECK(parse(arc, len, &r, &why) == 0);
	CHECK(why == NULL);
	/* "." is skipped; "/dev/null" comes out relative (GNU cpio itself drops "./"). */
	CHECK(find(&r, ".") == NULL);
	CHECK(find(&r, "") == NULL);
	for (int i = 0; i < r.n; i++)
		CHECK(r.e[i].name[0] != '/' && strncmp(r.e[i].name, "./", 2) != 0);
	CHECK(r.n == 8);

	s = find(&r, "hello");
	CHECK(s && s->mode == (S_IFREG | 0640) && s->size == 12 && memcmp(s->data, "hello wo", 8) == 0);
	s = find(&r, "sub");
	CHECK(s && s->mode == (S_IFDIR | 0751));
	s = find(&r, "sub/empty");
	CHECK(s && s->mode == (S_IFREG | 0600) && s->size == 0);
	s = find(&r, "sub/big");
	CHECK(s && s->mode == (S_IFREG | 0644) && s->size == 5000 && memcmp(s->data, "01234567", 8) == 0);
	s = find(&r, "odd");    /* 3 bytes: data padding is exercised */
	CHECK(s && s->size == 3 && memcmp(s->data, "abc", 3) == 0);
	s = find(&r, "link");
	CHECK(s && S_ISLNK(s->mode) && s->size == 5 && memcmp(s->data, "hello", 5) == 0);
	s = find(&r, "run.sh");
	CHECK(s && s->mode == (S_IFREG | 04755));
	s = find(&r, "dev/null");
	CHECK(s && S_ISCHR(s->mode) && s->rdev_major == 1 && s->rdev_minor == 3);

	/* Order is the archive's: a directory comes before what is in it (sorted find). */
	CHECK(find(&r, "sub") < find(&r, "sub/big"));
}

/* Every prefix of a good archive: never a fault, and the entries seen are a prefix of the full run. */
static void test_every_truncation(const unsigned char *arc, size_t len, size_t trailer_end)
{
	static struct record full, r;
	const char *why;
	int last_n = 0, monotonic = 1, prefix_ok = 1, errors_ok = 1, explained = 1;

	CHECK(parse(arc, len, &full, &why) == 0);
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *p = exact_copy(arc, cut);
		int rc = parse(p, cut, &r, &why);

		free(p);
		if (cut < trailer_end) {
			errors_ok &= rc == -EINVAL;
			explained &= why != NULL && strstr(why, "byte ") != NULL;
		} else {
			errors_ok &= rc == 0;
		}
		monotonic &= r.n >= last_n;
		last_n = r.n;
		for (int i = 0; i < r.n; i++)
			prefix_ok &= strcmp(r.e[i].name, full.e[i].name) == 0;
	}
	CHECK(errors_ok);
	CHECK(explained);
	CHECK(monotonic);
	CHECK(prefix_ok);
	CHECK(last_n == full.n);
}

/* Offsets of each member's header in a real archive, found by walking it. */
static size_t member_offset(const unsigned char *arc, size_t len, const char *name)
{
	for (size_t off = 0; off + 110 <= len; off += 4) {
		if (memcmp(arc + off, "070701", 6) == 0 && strcmp((const char *)arc + off + 110, name) == 0)
			return off;
	}
	printf("member %s not found\n", name);
	exit(1);
}

static void test_damaged_real(const unsigned char *arc, size_t len)
{
	static struct record r;
	const char *why;
	unsigned char *p;
	size_t odd = member_offset(arc, len, "odd");
	size_t big = member_offset(arc, len, "sub/big");
	size_t trailer = member_offset(arc, len, "TRAILER!!!");
	int before_odd, before_big;
	char want[64];

	/* How many entries come before each damaged member. */
	p = exact_copy(arc, odd);
	parse(p, odd, &r, &why);
	before_odd = r.n;
	free(p);
	p = exact_copy(arc, big);
	parse(p, big, &r, &why);
	before_big = r.n;
	free(p);
	CHECK(before_odd > 0 && before_big > before_odd);

	/* Bad magic at the very start: nothing at all, offset 0 named. */
	p = exact_copy(arc, len);
	p[0] = 'X';
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == 0);
	CHECK(why && strstr(why, "magic") && strstr(why, "byte 0)"));
	free(p);

	/* Bad magic in the middle: the members before it are kept, its offset is named. */
	p = exact_copy(arc, len);
	memcpy(p + odd, "070707", 6);   /* the old portable format's magic */
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	snprintf(want, sizeof(want), "byte %zu)", odd);
	CHECK(why && strstr(why, "magic") && strstr(why, want));
	free(p);

	/* Truncated header: the archive ends 50 bytes into a header. */
	p = exact_copy(arc, odd + 50);
	CHECK(parse(p, odd + 50, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "truncated header"));
	free(p);

	/* Truncated data: the archive ends inside sub/big's 5000 bytes. */
	p = exact_copy(arc, big + 200);
	CHECK(parse(p, big + 200, &r, &why) == -EINVAL && r.n == before_big);
	CHECK(why && strstr(why, "data runs past the end"));
	free(p);

	/* A huge size: 0xFFFFFFFF must not wrap an offset on a 32-bit kernel. */
	p = exact_copy(arc, len);
	memcpy(p + odd + 6 + 8 * 6, "FFFFFFFF", 8);
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "data runs past the end"));
	memcpy(p + odd + 6 + 8 * 6, "FFFFFFFD", 8);     /* + padding would wrap to a small number */
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	free(p);

	/* A name size running past the end, huge or just one too many. */
	p = exact_copy(arc, len);
	memcpy(p + odd + 6 + 8 * 11, "FFFFFFFF", 8);
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "name runs past the end"));
	free(p);
	p = exact_copy(arc, odd + 110 + 4);     /* "odd\0" is 4 bytes: cut one short */
	CHECK(parse(p, odd + 110 + 3, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "name runs past the end"));
	free(p);

	/* A name without its NUL. */
	p = exact_copy(arc, len);
	p[odd + 110 + 3] = 'X';
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "not NUL-terminated"));
	free(p);

	/* A zero name size. */
	p = exact_copy(arc, len);
	memcpy(p + odd + 6 + 8 * 11, "00000000", 8);
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "empty name"));
	free(p);

	/* A header field that is not hex: its name is in the message. */
	p = exact_copy(arc, len);
	p[odd + 6 + 8 * 1 + 3] = 'g';
	CHECK(parse(p, len, &r, &why) == -EINVAL && r.n == before_odd);
	CHECK(why && strstr(why, "mode"));
	free(p);

	/* No trailer: every member is kept, and the end is reported. */
	p = exact_copy(arc, trailer);
	CHECK(parse(p, trailer, &r, &why) == -EINVAL && r.n == 8);
	CHECK(why && strstr(why, "TRAILER"));
	free(p);

	/* The callback stops the walk and its value comes back. */
	memset(&r, 0, sizeof(r));
	r.stop_after = 2;
	CHECK(cpio_parse(arc, len, record_entry, &r, &why) == 99 && r.n == 2);

	/* A NULL why is allowed. */
	p = exact_copy(arc, 10);
	memset(&r, 0, sizeof(r));
	CHECK(cpio_parse(p, 10, record_entry, &r, NULL) == -EINVAL);
	free(p);
}

static void test_names(void)
{
	static struct record r;
	const char *why;

	/* Normalisation: any mix of leading "./" and "/". */
	hand_start();
	hand_entry(".", S_IFDIR | 0755, NULL);
	hand_entry("./", S_IFDIR | 0755, NULL);
	hand_entry("/", S_IFDIR | 0755, NULL);
	hand_entry("././a", S_IFREG | 0644, "x");
	hand_entry("//b", S_IFREG | 0644, "y");
	hand_entry("/./c", S_IFREG | 0644, NULL);
	hand_entry("..d", S_IFREG | 0644, NULL);         /* only a whole ".." component is bad */
	hand_entry("e/..f/g..", S_IFREG | 0644, NULL);
	hand_entry("./.hidden", S_IFREG | 0644, NULL);
	hand_trailer();
	CHECK(parse_hand(&r, &why) == 0);
	CHECK(r.n == 6);
	CHECK_STR(r.e[0].name, "a");
	CHECK_STR(r.e[1].name, "b");
	CHECK_STR(r.e[2].name, "c");
	CHECK_STR(r.e[3].name, "..d");
	CHECK_STR(r.e[4].name, "e/..f/g..");
	CHECK_STR(r.e[5].name, ".hidden");

	/* ".." anywhere as a component: rejected, the members before it kept. */
	static const char *const bad[] = { "..", "../etc/passwd", "a/../../b", "a/..", "./..", "/../x",
					   "a//../b" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hand_start();
		hand_entry("ok", S_IFREG | 0644, "fine");
		hand_entry(bad[i], S_IFREG | 0644, "evil");
		hand_entry("never", S_IFREG | 0644, NULL);
		hand_trailer();
		CHECK(parse_hand(&r, &why) == -EINVAL);
		CHECK(r.n == 1 && strcmp(r.e[0].name, "ok") == 0);
		CHECK(why && strstr(why, "\"..\"") && strstr(why, "byte 120)"));
	}

	/* A NUL inside the name (namesize says more than the string). */
	hand_start();
	hand_entry("ok", S_IFREG | 0644, NULL);
	hand_entry("abcdef", S_IFREG | 0644, NULL);
	handbuf[116 + 110 + 2] = 0;     /* second header at 116: "ab\0def\0" */
	hand_trailer();
	CHECK(parse_hand(&r, &why) == -EINVAL && r.n == 1);
	CHECK(why && strstr(why, "NUL inside name"));

	/* Whatever follows the trailer is ignored; an empty archive is an error. */
	hand_start();
	hand_entry("x", S_IFREG | 0644, NULL);
	hand_trailer();
	memset(handbuf + handlen, 0xff, 64);
	handlen += 64;
	CHECK(parse_hand(&r, &why) == 0 && r.n == 1);
	hand_start();
	CHECK(parse_hand(&r, &why) == -EINVAL && r.n == 0);
	CHECK(why && strstr(why, "TRAILER"));
}

int main(void)
{
	char dir[] = "/tmp/smpix-cpio-XXXXXX", cmd[512], path[600];
	unsigned char *arc;
	size_t len;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* The members a user's own initrd might hold: each file type cpio stores, odd modes. */
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd %s; mkdir -p tree/sub; cd tree; printf 'hello world\\n' > hello; chmod 640 hello;"
		 " chmod 751 sub; : > sub/empty; chmod 600 sub/empty; printf abc > odd;"
		 " i=0; while [ $i -lt 500 ]; do printf 0123456789; i=$((i+1)); done > sub/big;"
		 " chmod 644 sub/big odd; ln -s hello link; printf '#!/bin/sh\\n' > run.sh; chmod 4755 run.sh;"
		 " { find . | LC_ALL=C sort; echo /dev/null; } | cpio --quiet -o -H newc > ../good.cpio",
		 dir);
	run(cmd);
	snprintf(path, sizeof(path), "%s/good.cpio", dir);
	arc = read_file(path, &len);

	test_real_archive(arc, len);
	test_every_truncation(arc, len, member_offset(arc, len, "TRAILER!!!") + 110 + 11);
	test_damaged_real(arc, len);
	test_names();

	free(arc);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
	return hosttest_finish("cpio");
}
