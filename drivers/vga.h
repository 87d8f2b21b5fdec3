/* VGA text mode (80x25 at 0xB8000): a mirror of the serial console for people with a screen. */
#ifndef DRIVERS_VGA_H
#define DRIVERS_VGA_H

void vga_init(void);
void vga_putc(char c);

#endif
