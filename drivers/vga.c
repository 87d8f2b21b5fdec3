/* VGA text mode: writes console output to the screen, scrolling at the bottom. */
#include "drivers/vga.h"

#include "kernel/lib/string.h"
#include "kernel/mm/memlayout.h"
#include "kernel/types.h"
#include "kernel/x86/x86.h"

#define VGA_PHYS 0xB8000
#define COLS 80
#define ROWS 25
#define ATTR 0x0700     /* light grey on black */

static uint16_t *const screen = (uint16_t *)P2V(VGA_PHYS);
static int row, col;

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
		screen[i] = ATTR | ' ';
	row = col = 0;
	update_cursor();
}

static void scroll(void)
{
	memmove(screen, screen + COLS, (ROWS - 1) * COLS * sizeof(uint16_t));
	for (int i = 0; i < COLS; i++)
		screen[(ROWS - 1) * COLS + i] = ATTR | ' ';
	row = ROWS - 1;
}

void vga_putc(char c)
{
	if (c == '\n') {
		col = 0;
		row++;
	} else if (c == '\b') {
		if (col > 0)
			screen[row * COLS + --col] = ATTR | ' ';
	} else if (c == '\r') {
		col = 0;
	} else {
		screen[row * COLS + col] = ATTR | (uint8_t)c;
		if (++col == COLS) {
			col = 0;
			row++;
		}
	}
	if (row == ROWS)
		scroll();
	update_cursor();
}
