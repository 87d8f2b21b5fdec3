/* futex(2) as Linux i386 defines it: operations, flags, FUTEX_WAKE_OP's encoding, the robust list. */
#ifndef KERNEL_UAPI_FUTEX_H
#define KERNEL_UAPI_FUTEX_H

#include <stdint.h>

#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_FD                2       /* removed in Linux 2.6.26: -ENOSYS */
#define FUTEX_REQUEUE           3
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_WAKE_OP           5
#define FUTEX_LOCK_PI           6       /* the PI operations (6, 7, 8, 11, 12, 13): -ENOSYS on smpix */
#define FUTEX_UNLOCK_PI         7
#define FUTEX_TRYLOCK_PI        8
#define FUTEX_WAIT_BITSET       9
#define FUTEX_WAKE_BITSET       10
#define FUTEX_WAIT_REQUEUE_PI   11
#define FUTEX_CMP_REQUEUE_PI    12
#define FUTEX_LOCK_PI2          13

#define FUTEX_PRIVATE_FLAG      128     /* only this process's threads use it: keyed by (mm, address) */
#define FUTEX_CLOCK_REALTIME    256     /* WAIT_BITSET's absolute timeout is on CLOCK_REALTIME */
#define FUTEX_CMD_MASK          (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

#define FUTEX_BITSET_MATCH_ANY  0xffffffffu     /* FUTEX_WAIT and FUTEX_WAKE are the bitset calls with this */

/*
 * FUTEX_WAKE_OP's val3: "*uaddr2 = *uaddr2 OP oparg; wake on uaddr; and if the
 * old value CMP cmparg, wake on uaddr2 too". oparg and cmparg are 12-bit
 * signed; with FUTEX_OP_OPARG_SHIFT the operand is 1 << oparg.
 */
#define FUTEX_OP_SET            0       /* uaddr2 = oparg */
#define FUTEX_OP_ADD            1       /* uaddr2 += oparg */
#define FUTEX_OP_OR             2       /* uaddr2 |= oparg */
#define FUTEX_OP_ANDN           3       /* uaddr2 &= ~oparg */
#define FUTEX_OP_XOR            4       /* uaddr2 ^= oparg */
#define FUTEX_OP_OPARG_SHIFT    8       /* use (1 << oparg) as the operand */

#define FUTEX_OP_CMP_EQ         0
#define FUTEX_OP_CMP_NE         1
#define FUTEX_OP_CMP_LT         2
#define FUTEX_OP_CMP_LE         3
#define FUTEX_OP_CMP_GT         4
#define FUTEX_OP_CMP_GE         5

#define FUTEX_OP(op, oparg, cmp, cmparg) \
	((((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) | (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))

/*
 * Robust futexes: a thread registers the head of a list of the locks it holds
 * (set_robust_list); when it dies, the kernel marks each lock it still owned
 * FUTEX_OWNER_DIED and wakes one waiter. The futex word holds the owner's tid.
 */
#define FUTEX_WAITERS           0x80000000u     /* someone sleeps on it: wake one at unlock */
#define FUTEX_OWNER_DIED        0x40000000u     /* its owner died holding it */
#define FUTEX_TID_MASK          0x3fffffffu
#define ROBUST_LIST_LIMIT       2048            /* entries walked at most: a cyclic list ends */

/* struct robust_list_head on i386: 12 bytes (set_robust_list's len must be this). */
struct robust_list_head_32 {
	uint32_t next;                  /* first entry (struct robust_list *), the head itself if none */
	int32_t futex_offset;           /* from an entry to its futex word */
	uint32_t list_op_pending;       /* an entry being taken or released right now, or 0 */
};

#endif
