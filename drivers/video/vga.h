/* VGA text mode (80x25 at 0xB8000): a mirror of the serial console for people with a screen. */
#ifndef DRIVERS_VGA_H
#define DRIVERS_VGA_H

#include "kernel/types.h"

void vga_init(void);
/* Into the copy of the screen; vga_flush() shows it. The caller holds the console lock. */
void vga_putc(char c);
/* Copy the rows that changed to the card and move its cursor. The caller holds the console lock. */
void vga_flush(void);
bool vga_dirty(void);

#endif
