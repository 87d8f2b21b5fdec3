/* Reading firmware tables: byte checksums and little-endian fields at any alignment. */
#ifndef KERNEL_LIB_BYTES_H
#define KERNEL_LIB_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Sum of len bytes, modulo 256: ACPI and MP tables are valid when it is 0. */
static inline uint8_t bytes_sum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

static inline uint16_t get_le16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t get_le32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#endif
