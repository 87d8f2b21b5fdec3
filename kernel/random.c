/*
 * getrandom(): random bytes for user space (glibc seeds malloc's and the
 * stack protector's cookies with it at start-up).
 *
 * The entropy source is the TSC: every call mixes the cycle counter (whose
 * low bits jitter with interrupts, cache misses and the host's scheduling), the CPU
 * number and a counter into a 256-bit pool with SplitMix64's finaliser, and
 * hands out the finalised output. That is decent for seeding hash tables and
 * ASLR-like uses, but it is NOT a cryptographic generator: a teaching kernel
 * says so rather than pretend.
 */
#include "kernel/random.h"

#include "kernel/cpu.h"
#include "kernel/mm/uaccess.h"
#include "kernel/locking/spinlock.h"
#include "kernel/syscall/handlers.h"
#include "kernel/uapi/errno.h"
#include "kernel/x86/x86.h"

#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM   0x0002
#define GRND_INSECURE 0x0004
#define GETRANDOM_MAX 33554431u         /* Linux's cap on one call (bytes) */
#define CHUNK 64

/* Protects pool and counter. */
static spinlock_t random_lock = SPINLOCK_INIT("random");
static uint64_t pool[4] = { 0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL,
			    0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL };
static uint64_t counter;

/* SplitMix64's output function: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* The next 64 random bits: stir the TSC into one pool word, output a mix of all four. */
static uint64_t random_u64(void)
{
	uint64_t out;
	uint32_t flags;
	unsigned i;

	spin_lock_irqsave(&random_lock, flags);
	counter++;
	i = counter & 3;
	pool[i] = mix64(pool[i] ^ rdtsc() ^ ((uint64_t)cpu_id() << 56) ^ counter);
	out = mix64(pool[0] ^ pool[1] ^ pool[2] ^ pool[3] ^ counter);
	pool[(i + 1) & 3] ^= out;
	spin_unlock_irqrestore(&random_lock, flags);
	return out;
}

void random_bytes(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n) {
		uint64_t v = random_u64();
		size_t k = n < 8 ? n : 8;

		for (size_t i = 0; i < k; i++)
			p[i] = (uint8_t)(v >> (8 * i));
		p += k;
		n -= k;
	}
}

/* Flags as Linux checks them; the pool is always "ready", so GRND_NONBLOCK never waits either. */
long sys_getrandom(void *ubuf, size_t count, unsigned flags)
{
	uint8_t chunk[CHUNK];
	size_t done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & GRND_INSECURE) && (flags & GRND_RANDOM))
		return -EINVAL;
	if (count > GETRANDOM_MAX)
		count = GETRANDOM_MAX;
	if (!access_ok(ubuf, count))
		return -EFAULT;
	while (done < count) {
		size_t n = count - done < CHUNK ? count - done : CHUNK;

		random_bytes(chunk, n);
		if (copy_to_user((uint8_t *)ubuf + done, chunk, n) < 0)
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}
