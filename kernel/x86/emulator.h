/*
 * What only the emulator needs: placements that make smpix's hot paths
 * cheaper under QEMU's TCG, the emulator it is developed and measured on.
 *
 * TCG translates guest code into host code a block at a time and keeps the
 * blocks in a cache; it can chain one block straight to the next only
 * within a guest page. Whatever is here buys something under TCG, does no
 * harm on a real PC (where it buys nothing either), and is named for what it
 * does, so that the code a student reads says "this function sits in one
 * page", not why an emulator cares. docs/performance.md has the measurements.
 */
#ifndef KERNEL_X86_EMULATOR_H
#define KERNEL_X86_EMULATOR_H

/*
 * EMU_WITHIN_ONE_PAGE(n): start a function on an n-byte boundary (n a power
 * of two, at most 4096), so that, being shorter than n bytes, it lies within
 * one page.
 *
 * Under TCG: a jump to another page cannot be chained from one translated
 * block to the next, so every crossing costs a lookup of the target. A lock
 * path that straddled a page boundary was measured markedly slower with not
 * one instruction more on it (docs/performance.md, the uncontended lock
 * pairs).
 * On hardware: nothing happens at a page boundary in the instruction stream;
 * the cost is up to n - 1 bytes of padding before the function.
 *
 * Used by the uncontended lock paths: spin_lock_at() and spin_unlock() (512),
 * lock_kernel_site() and unlock_kernel_site() (1024: they are longer). A
 * function that grows past its n loses the benefit, not its correctness.
 */
#define EMU_WITHIN_ONE_PAGE(n) __attribute__((aligned(n)))

/*
 * Two things that cost more under TCG than on a PC, placed for both:
 *  - Every page a hot path touches is an entry in TCG's small direct-mapped
 *    software TLB, where a path spread over many pages collides with itself:
 *    one more reason to keep the read-mostly switches in one page
 *    (__read_mostly, kernel/types.h).
 *  - Every pause instruction leaves the translated code for the emulator's
 *    main loop, and two vCPUs doing that at once slow each other down: a
 *    work loop never pauses (bench_spin(), drivers/bench/bench.c); only
 *    spin-waits do.
 */

#endif
