/* The cpio "newc" archive parser: walks an initrd image in memory (pure C: host-tested). */
#include "fs/initrd/cpio.h"

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/uapi/errno.h"

/*
 * A newc member is a 110-byte ASCII header ("070701" and thirteen 8-digit hex
 * fields), the name with its NUL, padding to a multiple of 4 from the start of
 * the archive, the data, and padding again. The archive ends with a member
 * named "TRAILER!!!"; cpio pads what follows to a 512-byte block.
 */
#define NEWC_MAGIC      "070701"
#define NEWC_MAGIC_LEN  6
#define NEWC_HEADER_LEN 110
#define NEWC_TRAILER    "TRAILER!!!"

enum newc_field {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
	NEWC_NFIELDS
};

static const char *const newc_field_names[NEWC_NFIELDS] = {
	"ino", "mode", "uid", "gid", "nlink", "mtime", "filesize",
	"devmajor", "devminor", "rdevmajor", "rdevminor", "namesize", "check",
};

/*
 * The message behind *why. One buffer for the whole kernel: the initrd is
 * unpacked once, on one CPU, at boot, and the caller prints it at once.
 */
static char cpio_why_buf[96];

static int cpio_bad(const char **why, const char *what, size_t entry_off)
{
	if (why) {
		snprintf(cpio_why_buf, sizeof(cpio_why_buf), "%s (entry at byte %zu)", what, entry_off);
		*why = cpio_why_buf;
	}
	return -EINVAL;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly eight hex digits, no sign, no spaces: anything else is a damaged header. */
static bool parse_hex8(const char *p, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		int d = hex_digit(p[i]);

		if (d < 0)
			return false;
		v = (v << 4) | (uint32_t)d;
	}
	*out = v;
	return true;
}

/* The offset just past n bytes at off, rounded up to 4, or len if that runs past the end. */
static size_t skip_padded(size_t off, size_t n, size_t len)
{
	size_t end = off + n;   /* callers have checked n <= len - off */
	size_t pad = (4 - (end & 3)) & 3;

	return len - end < pad ? len : end + pad;
}

/* Strip leading "./" and "/" so every name is relative to the root it is unpacked into. */
static const char *strip_leading(const char *name)
{
	for (;;) {
		if (name[0] == '.' && name[1] == '/')
			name += 2;
		else if (name[0] == '/')
			name++;
		else
			return name;
	}
}

/* A ".." component would let an archive write outside the directory it is unpacked into. */
static bool has_dotdot(const char *name)
{
	const char *p = name;

	while (*p) {
		const char *start = p;

		while (*p && *p != '/')
			p++;
		if (p - start == 2 && start[0] == '.' && start[1] == '.')
			return true;
		while (*p == '/')
			p++;
	}
	return false;
}

int cpio_parse(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *arg),
	       void *arg, const char **why)
{
	const char *base = buf;
	size_t off = 0;

	while (off < len) {
		uint32_t f[NEWC_NFIELDS];
		struct cpio_entry e;
		const char *hdr = base + off, *name;
		size_t name_off, data_off;
		int rc;

		if (len - off < NEWC_HEADER_LEN)
			return cpio_bad(why, "truncated header", off);
		if (memcmp(hdr, NEWC_MAGIC, NEWC_MAGIC_LEN) != 0)
			return cpio_bad(why, "bad magic (not 070701, the newc format)", off);
		for (int i = 0; i < NEWC_NFIELDS; i++) {
			if (!parse_hex8(hdr + NEWC_MAGIC_LEN + 8 * i, &f[i])) {
				static char what[40];

				snprintf(what, sizeof(what), "bad hex digit in %s", newc_field_names[i]);
				return cpio_bad(why, what, off);
			}
		}

		name_off = off + NEWC_HEADER_LEN;
		name = base + name_off;
		if (f[F_NAMESIZE] == 0)
			return cpio_bad(why, "empty name", off);
		if (f[F_NAMESIZE] > len - name_off)
			return cpio_bad(why, "name runs past the end", off);
		if (name[f[F_NAMESIZE] - 1] != '\0')
			return cpio_bad(why, "name is not NUL-terminated", off);
		if (strlen(name) != f[F_NAMESIZE] - 1)
			return cpio_bad(why, "NUL inside name", off);
		if (strcmp(name, NEWC_TRAILER) == 0)
			return 0;

		data_off = skip_padded(name_off, f[F_NAMESIZE], len);
		if (f[F_FILESIZE] > len - data_off)
			return cpio_bad(why, "data runs past the end", off);

		name = strip_leading(name);
		if (has_dotdot(name))
			return cpio_bad(why, "\"..\" in name", off);
		off = skip_padded(data_off, f[F_FILESIZE], len);
		if (name[0] == '\0' || strcmp(name, ".") == 0)
			continue;       /* the archive's own root: already there */

		e.name = name;
		e.namelen = strlen(name);
		e.mode = f[F_MODE];
		e.uid = f[F_UID];
		e.gid = f[F_GID];
		e.nlink = f[F_NLINK];
		e.ino = f[F_INO];
		e.dev_major = f[F_DEVMAJOR];
		e.dev_minor = f[F_DEVMINOR];
		e.mtime = f[F_MTIME];
		e.rdev_major = f[F_RDEVMAJOR];
		e.rdev_minor = f[F_RDEVMINOR];
		e.data = base + data_off;
		e.size = f[F_FILESIZE];
		rc = fn(&e, arg);
		if (rc != 0)
			return rc;
	}
	return cpio_bad(why, "no TRAILER!!! entry", off);
}
