// TESTS: kernel/x86/madt.c kernel/x86/mptable.c
/* The MADT and MP table parsers against good tables and every kind of damage firmware can ship. */
#include "hosttest.h"

#include <stdint.h>

#include "kernel/uapi/errno.h"
#include "kernel/x86/platform.h"

static uint8_t buf[4096];
static size_t used;
static struct platform p;

/* ---- building tables byte by byte ---- */

static void put8(uint8_t v) { buf[used++] = v; }
static void put16(uint16_t v) { put8(v & 0xFF); put8(v >> 8); }
static void put32(uint32_t v) { put16(v & 0xFFFF); put16(v >> 16); }
static void put_str(const char *s, size_t n) { for (size_t i = 0; i < n; i++) put8(s[i]); }

static void fix_checksum(size_t sum_at, size_t len)
{
	uint8_t s = 0;

	buf[sum_at] = 0;
	for (size_t i = 0; i < len; i++)
		s += buf[i];
	buf[sum_at] = (uint8_t)-s;
}

/* MADT: 36-byte ACPI header (length at 4, checksum at 9), LAPIC address, flags. */
static void madt_begin(void)
{
	memset(buf, 0, sizeof(buf));
	used = 0;
	put_str("APIC", 4);
	put32(0);                       /* length, set by madt_end */
	put8(3);
	put8(0);                        /* checksum */
	put_str("SMPIXT", 6);
	put_str("TESTMADT", 8);
	put32(1);
	put32(0);
	put32(0);
	put32(0xFEE00000);
	put32(1);
}

static void madt_lapic(uint8_t uid, uint8_t apic_id, uint32_t flags)
{
	put8(0); put8(8); put8(uid); put8(apic_id); put32(flags);
}

static void madt_ioapic(uint8_t id, uint32_t pa, uint32_t gsi)
{
	put8(1); put8(12); put8(id); put8(0); put32(pa); put32(gsi);
}

static void madt_override(uint8_t irq, uint32_t gsi, uint16_t flags)
{
	put8(2); put8(10); put8(0); put8(irq); put32(gsi); put16(flags);
}

static size_t madt_end(void)
{
	buf[4] = used & 0xFF;
	buf[5] = (used >> 8) & 0xFF;
	fix_checksum(9, used);
	return used;
}

static void test_madt_good(void)
{
	size_t len;

	madt_begin();
	madt_lapic(0, 0, 1);
	madt_lapic(1, 2, 1);
	madt_lapic(2, 3, 0);            /* disabled: skipped, counted */
	madt_lapic(3, 2, 1);            /* duplicate APIC id: once only */
	madt_ioapic(4, 0xFEC00000, 0);
	madt_override(0, 2, 0);
	madt_override(9, 9, 0xD);
	put8(0x7F); put8(5); put8(0); put8(0); put8(0);    /* unknown type with a sane length: skipped */
	put8(5); put8(12); put16(0); put32(0xFED00000); put32(0);     /* 64-bit LAPIC address override */
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == 0);
	CHECK(p.ncpus == 2);
	CHECK(p.cpu[0].apic_id == 0 && p.cpu[1].apic_id == 2);
	CHECK(p.ndisabled == 1);
	CHECK(platform_cpu_disabled(&p, 3) && !platform_cpu_disabled(&p, 2));
	CHECK(p.nignored == 0);
	CHECK(p.nioapics == 1 && p.ioapic[0].id == 4 && p.ioapic[0].pa == 0xFEC00000);
	CHECK(p.noverrides == 2);
	CHECK(p.override[0].isa_irq == 0 && p.override[0].gsi == 2);
	CHECK(p.override[1].flags == 0xD);
	CHECK(p.lapic_pa == 0xFED00000);
}

static void test_madt_damage(void)
{
	size_t len;

	/* Bad checksum. */
	madt_begin();
	madt_lapic(0, 0, 1);
	len = madt_end();
	buf[len - 1] ^= 0x40;
	CHECK(madt_parse(buf, len, &p) == -EINVAL);

	/* Truncated: the header claims more than we have. */
	madt_begin();
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	len = madt_end();
	CHECK(madt_parse(buf, len - 4, &p) == -EINVAL);
	CHECK(madt_parse(buf, 20, &p) == -EINVAL);
	CHECK(madt_parse(buf, 0, &p) == -EINVAL);

	/* Wrong signature, and a length shorter than the fixed part. */
	madt_begin();
	len = madt_end();
	buf[0] = 'X';
	fix_checksum(9, len);
	CHECK(madt_parse(buf, len, &p) == -EINVAL);
	madt_begin();
	madt_end();
	buf[4] = 30;
	fix_checksum(9, 30);
	CHECK(madt_parse(buf, sizeof(buf), &p) == -EINVAL);

	/* An entry of length 0 must end the walk (not loop forever), keeping what came before. */
	madt_begin();
	madt_lapic(0, 0, 1);
	put8(0); put8(0); put8(0); put8(0); put8(0); put8(0); put8(0); put8(0);
	madt_lapic(1, 1, 1);
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == -EINVAL);
	CHECK(p.ncpus == 1);

	/* Length 1, and an entry running past the end of the table. */
	madt_begin();
	put8(0); put8(1);
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == -EINVAL);
	madt_begin();
	madt_lapic(0, 0, 1);
	put8(1); put8(12); put8(0); put8(0);             /* IOAPIC entry cut short */
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == -EINVAL);
	CHECK(p.nioapics == 0);

	/* An entry shorter than its type needs: ignored, no read beyond it. */
	madt_begin();
	put8(0); put8(4); put8(0); put8(7);
	madt_lapic(1, 1, 1);
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == 0);
	CHECK(p.ncpus == 1 && p.cpu[0].apic_id == 1);
}

static void test_madt_too_many_cpus(void)
{
	size_t len;

	madt_begin();
	for (int i = 0; i < MAX_CPUS + 9; i++)
		madt_lapic((uint8_t)i, (uint8_t)(i * 2), 1);
	len = madt_end();
	CHECK(madt_parse(buf, len, &p) == 0);
	CHECK(p.ncpus == MAX_CPUS);
	CHECK(p.nignored == 9);
	CHECK(p.cpu[MAX_CPUS - 1].apic_id == (MAX_CPUS - 1) * 2);
}

/* ---- the MP table ---- */

static size_t mp_fps(uint32_t config_pa, uint8_t feature1)
{
	memset(buf, 0, sizeof(buf));
	used = 0;
	put_str("_MP_", 4);
	put32(config_pa);
	put8(1);
	put8(4);
	put8(0);
	put8(feature1);
	put32(0);
	fix_checksum(10, 16);
	return 16;
}

static void mp_begin(void)
{
	memset(buf, 0, sizeof(buf));
	used = 0;
	put_str("PCMP", 4);
	put16(0);                       /* base length, set by mp_end */
	put8(4);
	put8(0);                        /* checksum */
	put_str("SMPIX   ", 8);
	put_str("TEST        ", 12);
	put32(0);
	put16(0);
	put16(0);                       /* entry count, set by mp_end */
	put32(0xFEE00000);
	put16(0);
	put8(0);
	put8(0);
}

static int mp_entries;

static void mp_cpu(uint8_t apic_id, uint8_t flags)
{
	put8(0); put8(apic_id); put8(0x14); put8(flags); put32(0x600); put32(0); put32(0); put32(0);
	mp_entries++;
}

static void mp_bus(uint8_t id, const char *type)
{
	put8(1); put8(id); put_str(type, 6);
	mp_entries++;
}

static void mp_ioapic(uint8_t id, uint32_t pa)
{
	put8(2); put8(id); put8(0x11); put8(1); put32(pa);
	mp_entries++;
}

static void mp_irq(uint8_t bus, uint8_t irq, uint8_t ioapic, uint8_t pin)
{
	put8(3); put8(0); put16(0); put8(bus); put8(irq); put8(ioapic); put8(pin);
	mp_entries++;
}

static size_t mp_end(void)
{
	buf[4] = used & 0xFF;
	buf[5] = (used >> 8) & 0xFF;
	buf[34] = mp_entries & 0xFF;
	buf[35] = mp_entries >> 8;
	fix_checksum(7, used);
	mp_entries = 0;
	return used;
}

static void test_mp_fps(void)
{
	size_t len = mp_fps(0x9FC00, 0);

	CHECK(mp_check_fps(buf, len) == 0x9FC00);
	CHECK(mp_check_fps(buf, 8) == -ENOENT);          /* too short to be one */
	buf[5] ^= 1;
	CHECK(mp_check_fps(buf, len) == -EINVAL);         /* bad checksum */
	len = mp_fps(0, 5);
	CHECK(mp_check_fps(buf, len) == -ENOENT);         /* a default configuration: no table */
	len = mp_fps(0x9FC00, 0);
	buf[0] = 'X';
	CHECK(mp_check_fps(buf, len) == -ENOENT);
}

static void test_mp_good(void)
{
	size_t len;

	mp_begin();
	mp_cpu(0, 3);                   /* enabled, boot processor */
	mp_cpu(4, 1);
	mp_cpu(5, 0);                   /* disabled */
	mp_bus(0, "PCI   ");
	mp_bus(1, "ISA   ");
	mp_ioapic(2, 0xFEC00000);
	mp_irq(1, 0, 2, 2);             /* ISA IRQ0 on pin 2: an override */
	mp_irq(1, 4, 2, 4);             /* identity: not an override */
	mp_irq(0, 3, 2, 16);            /* a PCI interrupt: not ours */
	len = mp_end();
	CHECK(mp_parse_config(buf, len, &p) == 0);
	CHECK(p.ncpus == 2);
	CHECK(p.cpu[0].apic_id == 0 && p.cpu[0].bsp);
	CHECK(p.cpu[1].apic_id == 4 && !p.cpu[1].bsp);
	CHECK(p.ndisabled == 1 && platform_cpu_disabled(&p, 5));
	CHECK(p.nioapics == 1 && p.ioapic[0].id == 2 && p.ioapic[0].gsi_base == 0);
	CHECK(p.noverrides == 1);
	CHECK(p.override[0].isa_irq == 0 && p.override[0].gsi == 2);
	CHECK(p.lapic_pa == 0xFEE00000);
}

static void test_mp_damage(void)
{
	size_t len;

	/* Bad checksum. */
	mp_begin();
	mp_cpu(0, 3);
	len = mp_end();
	buf[len - 3] ^= 0x10;
	CHECK(mp_parse_config(buf, len, &p) == -EINVAL);

	/* Truncated. */
	mp_begin();
	mp_cpu(0, 3);
	mp_cpu(1, 1);
	len = mp_end();
	CHECK(mp_parse_config(buf, len - 1, &p) == -EINVAL);
	CHECK(mp_parse_config(buf, 10, &p) == -EINVAL);

	/* An entry count larger than the entries present. */
	mp_begin();
	mp_cpu(0, 3);
	len = mp_end();
	buf[34] = 5;
	fix_checksum(7, len);
	CHECK(mp_parse_config(buf, len, &p) == -EINVAL);
	CHECK(p.ncpus == 1);

	/* An unknown entry type has no known size: stop there. */
	mp_begin();
	mp_cpu(0, 3);
	put8(9); put8(0); put8(0); put8(0); put8(0); put8(0); put8(0); put8(0);
	mp_entries++;
	mp_cpu(1, 1);
	len = mp_end();
	CHECK(mp_parse_config(buf, len, &p) == -EINVAL);
	CHECK(p.ncpus == 1);

	/* A processor entry cut off by the table's end. */
	mp_begin();
	mp_cpu(0, 3);
	len = mp_end();
	buf[4] = (uint8_t)(len - 4);
	fix_checksum(7, len - 4);
	CHECK(mp_parse_config(buf, len - 4, &p) == -EINVAL);

	/* Too many CPUs. */
	mp_begin();
	for (int i = 0; i < MAX_CPUS + 3; i++)
		mp_cpu((uint8_t)i, 1);
	len = mp_end();
	CHECK(mp_parse_config(buf, len, &p) == 0);
	CHECK(p.ncpus == MAX_CPUS && p.nignored == 3);
}

int main(void)
{
	test_madt_good();
	test_madt_damage();
	test_madt_too_many_cpus();
	test_mp_fps();
	test_mp_good();
	test_mp_damage();
	return hosttest_finish("test_platform");
}
