/*
 * VGA text mode: a mirror of the console on the screen, scrolling at the
 * bottom.
 *
 * Text goes into a copy of the screen in ordinary memory first, and
 * vga_flush() copies the rows that changed to the card. Why: the card's
 * memory is slow to reach (uncached memory across the bus on a PC, a trip
 * into the emulator under QEMU), and a scroll rewrites the whole screen. Drawn straight to the card, a
 * big write() to the console cost more in screen updates than in the
 * serial line itself, all of it with interrupts off. printk flushes after
 * each message (a panic's last words must be on the screen); the console's
 * ordinary output is flushed by the timer a few times a second.
 * Callers serialize (kernel/printk.c's console_lock).
 */
#include "drivers/video/vga.h"

#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/types.h"
#include "kernel/x86/x86.h"

#define VGA_PHYS 0xB8000
#define COLS 80
#define ROWS 25
#define ATTR 0x0700     /* light grey on black */

static uint16_t *const screen = (uint16_t *)P2V(VGA_PHYS);
static uint16_t shadow[ROWS * COLS];    /* what the screen should show */
static int row, col;
static int dirty_from = ROWS, dirty_to = -1;    /* rows that differ from the card's, inclusive */

static void mark_dirty(int first, int last)
{
	if (first < dirty_from)
		dirty_from = first;
	if (last > dirty_to)
		dirty_to = last;
}

static void update_cursor(void)
{
	uint16_t pos = (uint16_t)(row * COLS + col);

	outb(0x3D4, 14);
	outb(0x3D5, pos >> 8);
	outb(0x3D4, 15);
	outb(0x3D5, pos & 0xFF);
}

void vga_init(void)
{
	for (int i = 0; i < COLS * ROWS; i++)
		shadow[i] = ATTR | ' ';
	row = col = 0;
	mark_dirty(0, ROWS - 1);
	vga_flush();
}

static void scroll(void)
{
	memmove(shadow, shadow + COLS, (ROWS - 1) * COLS * sizeof(uint16_t));
	for (int i = 0; i < COLS; i++)
		shadow[(ROWS - 1) * COLS + i] = ATTR | ' ';
	row = ROWS - 1;
	mark_dirty(0, ROWS - 1);
}

void vga_putc(char c)
{
	if (c == '\n') {
		col = 0;
		row++;
	} else if (c == '\b') {
		if (col > 0)
			shadow[row * COLS + --col] = ATTR | ' ';
	} else if (c == '\r') {
		col = 0;
	} else {
		shadow[row * COLS + col] = ATTR | (uint8_t)c;
		if (++col == COLS) {
			col = 0;
			row++;
		}
	}
	if (row == ROWS)
		scroll();
	else
		mark_dirty(row > 0 ? row - 1 : 0, row);
}

bool vga_dirty(void)
{
	return dirty_to >= 0;
}

void vga_flush(void)
{
	if (!vga_dirty())
		return;
	memcpy(screen + dirty_from * COLS, shadow + dirty_from * COLS,
	       (size_t)(dirty_to - dirty_from + 1) * COLS * sizeof(uint16_t));
	dirty_from = ROWS;
	dirty_to = -1;
	update_cursor();
}
